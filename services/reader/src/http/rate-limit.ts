import type { NextFunction, Request, Response } from 'express';
import { Counter, type Registry } from 'prom-client';
import type { Principal } from '../principal';

export interface RateLimitOptions {
  /** Requests a caller may make a minute, on average. */
  perMinute: number;
  /** Requests a caller may make at once (the bucket's size). Default: perMinute. */
  burst?: number;
  /** Callers tracked at most; past it, the idlest are forgotten (they start again with a full bucket). */
  maxCallers?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets, one per caller: a bucket holds up to `burst` requests and refills at
 * perMinute / 60 a second. In memory, per process: behind N replicas a caller gets N times
 * the limit, which is what a per-replica protection is for.
 */
export class RateLimiter {
  readonly perMinute: number;
  readonly burst: number;
  private readonly perMs: number;
  private readonly maxCallers: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    if (!Number.isFinite(options.perMinute) || options.perMinute <= 0) throw new TypeError('RateLimiter: perMinute must be a positive number');
    this.perMinute = options.perMinute;
    this.burst = Math.max(1, Math.floor(options.burst ?? options.perMinute));
    this.perMs = options.perMinute / 60_000;
    this.maxCallers = options.maxCallers ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Takes `count` requests (the messages of a JSON-RPC batch) from the caller's bucket, all
   * or none: 0 when they may go on, else the seconds to wait.
   */
  take(key: string, count = 1): number {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
      // Most recently used last: the first ones are the idlest when the map must shrink.
      this.buckets.delete(key);
    } else {
      bucket = { tokens: this.burst, at: now };
      this.forgetIdle();
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return 0;
    }
    return Math.max(1, Math.ceil((count - bucket.tokens) / this.perMs / 1000));
  }

  /** Callers tracked now (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private forgetIdle(): void {
    if (this.buckets.size < this.maxCallers) return;
    const full = this.burst / this.perMs;
    const now = this.now();
    for (const [key, bucket] of this.buckets) {
      if (this.buckets.size < this.maxCallers * 0.9) break;
      // A bucket that has refilled is the same as no bucket; the oldest go first anyway.
      if (now - bucket.at >= full || this.buckets.size >= this.maxCallers) this.buckets.delete(key);
    }
  }
}

/** The bucket a request draws from: its principal's, or its address's for an anonymous caller. */
export function callerKey(req: Request, principal: Principal | null): string {
  return principal ? `principal:${principal.id}` : `address:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

export type RateLimited = (res: Response, retryAfterSeconds: number, message: string) => void;

/** What a limited caller is told: the limit and when to come back. */
export function rateLimitMessage(limiter: RateLimiter, retryAfterSeconds: number): string {
  return `Rate limit reached: at most ${limiter.perMinute} requests a minute (${limiter.burst} at once) per token, or per address without one. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
}

/**
 * Answers 429 with Retry-After (in the body shape `refuse` writes) once a caller's bucket
 * is empty; `principalOf` reads who the auth guard found.
 */
export function rateLimitGuard(limiter: RateLimiter | undefined, principalOf: (res: Response) => Principal | null, refuse: RateLimited, onLimited?: (key: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!limiter) {
      next();
      return;
    }
    const key = callerKey(req, principalOf(res));
    const wait = limiter.take(key);
    if (wait === 0) {
      next();
      return;
    }
    onLimited?.(key.slice(0, key.indexOf(':')));
    res.setHeader('Retry-After', String(wait));
    refuse(res, wait, rateLimitMessage(limiter, wait));
  };
}

/**
 * After the body is parsed: the messages of a batch beyond the first (which rateLimitGuard
 * counted with the request) draw from the same bucket, so N calls cost N however they are sent.
 */
export function batchRateLimit(limiter: RateLimiter | undefined, principalOf: (res: Response) => Principal | null, refuse: RateLimited, onLimited?: (key: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const extra = Array.isArray(req.body) ? req.body.length - 1 : 0;
    if (!limiter || extra <= 0) {
      next();
      return;
    }
    const key = callerKey(req, principalOf(res));
    const wait = limiter.take(key, extra);
    if (wait === 0) {
      next();
      return;
    }
    onLimited?.(key.slice(0, key.indexOf(':')));
    res.setHeader('Retry-After', String(wait));
    refuse(res, wait, rateLimitMessage(limiter, wait));
  };
}

/** For the auth guard: a caller whose credentials keep failing is throttled like any other (429 instead of 401). */
export function throttleRefusals(limiter: RateLimiter | undefined, refuse: RateLimited, onLimited?: (key: string) => void) {
  return (req: Request, res: Response): boolean => {
    if (!limiter) return false;
    const wait = limiter.take(callerKey(req, null));
    if (wait === 0) return false;
    onLimited?.('address');
    res.setHeader('Retry-After', String(wait));
    refuse(res, wait, rateLimitMessage(limiter, wait));
    return true;
  };
}

const LIMITED = 'gitdex_reader_rate_limited_total';

/** Counts requests refused for the rate limit, by caller kind (principal or address), in the given registry. */
export function rateLimitedCounter(registry: Registry): (kind: string) => void {
  const counter =
    (registry.getSingleMetric(LIMITED) as Counter<'caller'> | undefined) ??
    new Counter({ name: LIMITED, help: 'Reader requests refused with 429, by caller kind (principal: a token; address: anonymous).', labelNames: ['caller'], registers: [registry] });
  return (kind) => counter.inc({ caller: kind });
}
