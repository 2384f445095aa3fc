// An MCP SDK OAuth client as a CLI keeps it, and the browser it sends to GitHub: it follows
// gitdex's and the stand-in's redirects, approving at the stand-in's consent as a named person.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export const REDIRECT = 'http://127.0.0.1:33418/callback';

/** What a CLI client keeps (Claude Code's, in memory); its "browser" approves at GitHub as `login`. */
export class SignInAs implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  code: string | null = null;

  constructor(
    private readonly standInUrl: () => string,
    private readonly login: string,
  ) {}

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `sdk client of ${this.login}`,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    const back = await browse(this.standInUrl(), url.href, this.login);
    this.code = back.searchParams.get('code');
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A browser that follows redirects from gitdex to GitHub's consent (approved as `login`) and back, up to the client's redirect URI. */
export async function browse(standInUrl: string, start: string, login: string): Promise<URL> {
  let url = new URL(start);
  for (let hop = 0; hop < 6; hop += 1) {
    if (url.origin === standInUrl && url.pathname === '/login/oauth/authorize') url.searchParams.set('login', login);
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`${url.pathname} answered ${response.status}: ${await response.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(REDIRECT)) return next;
    url = next;
  }
  throw new Error('too many redirects');
}
