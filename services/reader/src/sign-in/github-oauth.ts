/** The GitHub side of sign-in: where to send a person, and the code GitHub sends back traded for their token. */
export interface GitHubOAuth {
  /** GitHub's sign-in page for this person, coming back to `callbackUrl` with `state`. */
  authorizeUrl(state: string, callbackUrl: string): string;
  /** GitHub's code traded for the person's user token (never shown to the MCP client). */
  exchange(code: string, callbackUrl: string): Promise<GitHubUserToken>;
  /** An expiring user token renewed with its refresh token (GitHub App user tokens last 8 hours). */
  renew(refreshToken: string): Promise<GitHubUserToken>;
}

export interface GitHubUserToken {
  accessToken: string;
  /** Set when the GitHub App issues expiring user tokens. */
  refreshToken?: string;
  expiresInSeconds?: number;
}

export interface GitHubOAuthOptions {
  /** github.com, a GitHub Enterprise Server, or the stand-in (GITHUB_WEB_URL). */
  webUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

/** Raised when GitHub refused the code: the person starts again from their client. */
export class GitHubSignInError extends Error {
  readonly code = 'GITHUB_SIGN_IN_REFUSED';
  constructor(readonly reason: string) {
    super(`GitHub refused the sign-in (${reason}); start the sign-in again from your client.`);
    this.name = 'GitHubSignInError';
  }
}

/** A GitHub App's user authorization and an OAuth app share these two endpoints; either one's client id and secret work. */
export function gitHubOAuth(options: GitHubOAuthOptions): GitHubOAuth {
  if (!options.clientId || !options.clientSecret) throw new TypeError('gitHubOAuth: clientId and clientSecret are required');
  const web = options.webUrl.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  /** GitHub's token endpoint: a code or a refresh token traded for a user token. */
  const tokenRequest = async (grant: Record<string, string>): Promise<GitHubUserToken> => {
    const response = await send(`${web}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: options.clientId, client_secret: options.clientSecret, ...grant }),
      // GitHub answers in well under a second; a hung exchange must not hold the person's browser.
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof body.access_token !== 'string') throw new GitHubSignInError(typeof body.error === 'string' ? body.error : `HTTP ${response.status}`);
    return {
      accessToken: body.access_token,
      ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
      ...(typeof body.expires_in === 'number' ? { expiresInSeconds: body.expires_in } : {}),
    };
  };
  return {
    authorizeUrl(state, callbackUrl) {
      const query = new URLSearchParams({ client_id: options.clientId, redirect_uri: callbackUrl, state, allow_signup: 'false' });
      return `${web}/login/oauth/authorize?${query.toString()}`;
    },
    exchange: (code, callbackUrl) => tokenRequest({ code, redirect_uri: callbackUrl }),
    renew: (refreshToken) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}
