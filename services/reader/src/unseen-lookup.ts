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

/** Lookups by callers without a token a day, all addresses together (GITDEX_ANONYMOUS_QUEUE_DAILY). */
export const ANONYMOUS_LOOKUPS_PER_DAY = 100;

/** What a backfill queued by a caller without a token may hold for the indexer to index it (GITDEX_ANONYMOUS_BACKFILL_MAX_*). */
export interface BackfillCap {
  maxFiles: number;
  maxBytes: number;
}

export const ANONYMOUS_BACKFILL_CAP: BackfillCap = { maxFiles: 20_000, maxBytes: 200 * 1024 * 1024 };

export function unseenLimiter(perMinute = UNSEEN_LOOKUPS_PER_MINUTE, now?: () => number): RateLimiter {
  return new RateLimiter({ perMinute, burst: perMinute, maxCallers: 10_000, ...(now ? { now } : {}) });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A count that starts again every day (UTC): per-address buckets stop one caller, and this
 * stops many addresses together, which is what the flood of a whole address range would be.
 */
export class DailyBudget {
  private day = -1;
  private used = 0;

  constructor(
    readonly perDay: number,
    private readonly now: () => number,
  ) {}

  /** Takes one when some are left today: true, else false. */
  take(): boolean {
    const today = Math.floor(this.now() / DAY_MS);
    if (today !== this.day) {
      this.day = today;
      this.used = 0;
    }
    if (this.used >= this.perDay) return false;
    this.used += 1;
    return true;
  }

  /** Seconds until the next day starts (when the budget is full again). */
  secondsToRefill(): number {
    return Math.max(1, Math.ceil((DAY_MS - (this.now() % DAY_MS)) / 1000));
  }
}
