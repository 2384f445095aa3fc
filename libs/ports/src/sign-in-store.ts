/**
 * The kinds of record sign-in keeps: registered clients, authorizations waiting for GitHub's
 * answer, authorization codes, grants (one person signed in through one client: the family of
 * their refresh tokens), refresh tokens, spent codes and refresh tokens (kept to tell a replay
 * from a typo), access tokens, and each person's GitHub token (sealed).
 */
export type SignInRecordKind = 'client' | 'pending' | 'code' | 'grant' | 'refresh' | 'spent' | 'access' | 'person';

/**
 * Sign-in state shared by every reader replica, in the engine the deployment already has
 * (SQLite embedded, Elasticsearch in the cluster). Records are JSON objects under a key
 * (callers pass digests of tokens, never the tokens); each may carry an expiry after which it
 * reads as absent. Times come from the caller's clock, so a test can expire a record without
 * waiting.
 */
export interface SignInStore {
  /** Writes (or replaces) a record; `expiresAt` null keeps it until it is deleted. */
  put(kind: SignInRecordKind, key: string, value: object, expiresAt: Date | null): Promise<void>;
  /** The record, or null when it is absent or expired at `now`. */
  get<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null>;
  /**
   * Reads and deletes a record in one step: of callers asking at the same moment exactly one
   * gets it (a code or a refresh token is used once). Null when absent or expired.
   */
  take<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null>;
  delete(kind: SignInRecordKind, key: string): Promise<void>;
  /** Unexpired records of a kind with their keys, at most `limit` (the operator's view of who is signed in). */
  list<T extends object>(kind: SignInRecordKind, now: Date, limit: number): Promise<{ key: string; value: T }[]>;
  /** Deletes every record expired at `now`; how many went. */
  sweep(now: Date): Promise<number>;
}
