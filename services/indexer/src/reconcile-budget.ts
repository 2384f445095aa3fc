import type { ReconcileReport } from './reconcile';

export interface ReconcileBudget {
  /** Share of the hourly rate limit the reconciler may spend (GITDEX_RECONCILE_BUDGET_SHARE). */
  share: number;
  /** GitHub's hourly limit for the credentials (5,000 for an installation or a personal token). */
  limitPerHour: number;
  /** The interval never goes below this (GITDEX_RECONCILE_INTERVAL_SECONDS). */
  minimumSeconds: number;
}

/** GitHub's core limit for an installation or a personal token, an hour. */
export const GITHUB_HOURLY_LIMIT = 5000;

/** Requests of a pass that count against GitHub's rate limit: 304s do not. */
export function countedRequests(report: ReconcileReport): number {
  const { listPages, repositories, heads, notModified } = report.requests;
  return listPages + repositories + heads - notModified;
}

/**
 * Seconds until the next pass, so that passes like the last one spend at most `share` of the
 * hourly limit: a first pass over 300 repositories (303 counted requests) at 0.1 of 5,000
 * waits 36 minutes; a repeated one whose heads were 304s (3 counted) waits the minimum. All
 * installations are counted as one budget, which errs on the side of spending less.
 */
export function budgetedIntervalSeconds(report: ReconcileReport | null, budget: ReconcileBudget): number {
  if (!report) return budget.minimumSeconds;
  const perHour = budget.share * budget.limitPerHour;
  const needed = perHour > 0 ? Math.ceil((countedRequests(report) / perHour) * 3600) : Infinity;
  return Math.max(budget.minimumSeconds, needed);
}
