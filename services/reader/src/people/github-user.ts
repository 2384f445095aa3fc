/** Who a GitHub user token belongs to. */
export interface GitHubPerson {
  userId: number;
  login: string;
}

/**
 * What the mirror asks GitHub with a person's own token. An implementation throws an error
 * with `tokenRefused: true` (such as GitHubTokenRefused) when GitHub answers 401 (the token was
 * revoked or expired), so the mirror can tell an ended authorization from an outage.
 */
export interface GitHubUserAccess {
  /** GET /user. */
  whoAmI(userToken: string): Promise<GitHubPerson>;
  /** The ids of every repository the token's person can read (GET /user/repos, all pages). */
  readableRepositoryIds(userToken: string): Promise<number[]>;
}

export class GitHubTokenRefused extends Error {
  readonly code = 'GITHUB_TOKEN_REFUSED';
  readonly tokenRefused = true;
  constructor(message = 'GitHub refused the user token (401): the authorization was revoked or expired; the person must sign in again') {
    super(message);
    this.name = 'GitHubTokenRefused';
  }
}

/** Gives the mirror a person's current GitHub user token (owned and decrypted by the sign-in side); null when none is held. */
export type GitHubTokenSource = (userId: number) => Promise<string | null>;

export function isTokenRefused(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { tokenRefused?: unknown }).tokenRefused === true;
}
