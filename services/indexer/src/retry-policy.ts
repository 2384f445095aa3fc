import { PortError } from '@gitdex/ports';

export interface RetryPolicy {
  /** Attempts for one event before it goes to the dead letters. */
  maxAttempts: number;
  /**
   * A transient failure (GitHub down or rate-limiting) is retried for at least this long
   * whatever the attempts, so an outage of some minutes sends nothing to the dead letters.
   */
  retryBudgetMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, retryBudgetMs: 10 * 60_000, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Exponential backoff with jitter, or exactly what GitHub asked for (retry-after, rate-limit reset). */
export function delayBeforeRetry(error: unknown, attempt: number, policy: RetryPolicy, random = Math.random): number {
  if (error instanceof PortError && error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs + 250, 15 * 60_000);
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

export function describeError(error: unknown): string {
  if (error instanceof PortError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
