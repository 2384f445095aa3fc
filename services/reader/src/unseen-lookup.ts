import { RateLimiter } from './http/rate-limit';

/** A repository as GitHub describes it: what a backfill event needs. */
export interface LookedUpRepository {
  id: number;
  fullName: string;
  defaultBranch: string;
  private: boolean;
  htmlUrl: string;
}

/** Asks GitHub about a repository by owner/name; null when it does not exist or gitdex cannot see it. */
export type RepositoryLookup = (fullName: string) => Promise<LookedUpRepository | null>;

/**
 * Who may have a repository gitdex has never seen looked up on GitHub and queued
 * (GITDEX_QUEUE_UNSEEN): any caller, only tokens whose patterns name it, or nobody.
 */
export type QueueUnseenPolicy = 'anonymous' | 'tokens' | 'off';

/** GitHub lookups of unseen repositories a caller may make a minute (and at once). */
export const UNSEEN_LOOKUPS_PER_MINUTE = 10;

export function unseenLimiter(perMinute = UNSEEN_LOOKUPS_PER_MINUTE, now?: () => number): RateLimiter {
  return new RateLimiter({ perMinute, burst: perMinute, maxCallers: 10_000, ...(now ? { now } : {}) });
}
