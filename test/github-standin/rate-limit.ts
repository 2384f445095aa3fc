// The core rate-limit window: every API request uses one unit; answers carry x-ratelimit-* headers.
import type { Response } from 'express';

export interface RateLimitSnapshot {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
  used: number;
  resource: string;
}

export class RateLimiter {
  private used = 0;
  private resetAt: number;

  constructor(
    public limit = 5000,
    public windowSeconds = 3600,
    private readonly now: () => number = Date.now,
  ) {
    this.resetAt = this.windowEnd();
  }

  private windowEnd(): number {
    return Math.floor(this.now() / 1000) + this.windowSeconds;
  }

  private roll(): void {
    if (Math.floor(this.now() / 1000) >= this.resetAt) {
      this.used = 0;
      this.resetAt = this.windowEnd();
    }
  }

  snapshot(): RateLimitSnapshot {
    this.roll();
    return { limit: this.limit, remaining: Math.max(0, this.limit - this.used), reset: this.resetAt, used: this.used, resource: 'core' };
  }

  /** Uses one unit; answers false (nothing used) when the window is exhausted. */
  consume(): boolean {
    this.roll();
    if (this.used >= this.limit) return false;
    this.used += 1;
    return true;
  }

  /** Gives a unit back (304 Not Modified answers do not count on GitHub). */
  refund(): void {
    this.used = Math.max(0, this.used - 1);
  }

  /** Starts a fresh window (admin). */
  reset(): void {
    this.used = 0;
    this.resetAt = this.windowEnd();
  }

  setHeaders(res: Response, snap: RateLimitSnapshot = this.snapshot()): void {
    res.setHeader('x-ratelimit-limit', String(snap.limit));
    res.setHeader('x-ratelimit-remaining', String(snap.remaining));
    res.setHeader('x-ratelimit-reset', String(snap.reset));
    res.setHeader('x-ratelimit-used', String(snap.used));
    res.setHeader('x-ratelimit-resource', snap.resource);
  }

  /** Body of GET /rate_limit. */
  body(): Record<string, unknown> {
    const core = this.snapshot();
    const other = (limit: number, resource: string): RateLimitSnapshot => ({ limit, remaining: limit, reset: core.reset, used: 0, resource });
    const strip = ({ resource: _resource, ...rest }: RateLimitSnapshot): Omit<RateLimitSnapshot, 'resource'> => rest;
    return {
      resources: {
        core: strip(core),
        search: strip(other(30, 'search')),
        graphql: strip(other(5000, 'graphql')),
        code_search: strip(other(10, 'code_search')),
      },
      rate: strip(core),
    };
  }
}

export function primaryRateLimitMessage(who: string): string {
  return `API rate limit exceeded for ${who}. If you reach out to GitHub Support for help, please include the request ID.`;
}

export const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.';
