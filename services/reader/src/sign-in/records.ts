/** What sign-in stores, by kind (SignInStore records). Tokens and codes are keys by digest only. */

/** An authorization waiting for GitHub's answer, under the random state sent to GitHub. */
export interface PendingRecord {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  resource: string;
  scopes: string[];
}

/** An authorization code, used once, within its minute. */
export interface CodeRecord {
  grantId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
}

/**
 * One person signed in through one client: the family of refresh tokens. Revoking it ends
 * every access and refresh token issued under it.
 */
export interface GrantRecord {
  grantId: string;
  userId: number;
  login: string;
  clientId: string;
  clientName?: string;
  resource: string;
  scopes: string[];
  signedInAt: string;
  /** Last time its refresh token was turned in. */
  usedAt: string;
  revokedAt: string | null;
  /** Why: "signed out", "refresh token reused", "code replayed", "GitHub authorization revoked". */
  revokedBecause?: string;
}

export interface RefreshRecord {
  grantId: string;
  clientId: string;
}

/** A code or refresh token already turned in: presenting it again revokes its grant. */
export interface SpentRecord {
  grantId: string;
}

export interface AccessRecord {
  grantId: string;
  userId: number;
  login: string;
  clientId: string;
  resource: string;
  scopes: string[];
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A person's newest GitHub token, sealed (AES-256-GCM), under their GitHub user id: the mirror's refresh asks GitHub with it; never sent to a client. */
export interface PersonRecord {
  userId: number;
  login: string;
  github: string;
  /** Sealed refresh token and expiry of an expiring user token (a GitHub App's, 8 hours): renewed before it ends. */
  githubRefresh?: string;
  githubExpiresAt?: string;
  updatedAt: string;
}
