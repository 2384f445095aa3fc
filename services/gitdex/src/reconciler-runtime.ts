import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import { errorFields, type Logger } from '@gitdex/observability';
import {
  budgetedIntervalSeconds,
  createReconcilerMetrics,
  GITHUB_HOURLY_LIMIT,
  leasedPass,
  reconcile,
  ReconcilerLease,
  ReconcileSchedule,
  type PassResult,
  type PullOptions,
  type Timers,
} from '@gitdex/indexer';
import type { Adapters } from './adapters';

export interface ReconcilerOptions {
  /** Share of GitHub's hourly limit the reconciler may spend (GITDEX_RECONCILE_BUDGET_SHARE). */
  budgetShare?: number;
  /** This process in the lease (default host:pid). */
  holder?: string;
  leaseTtlMs?: number;
  now?: () => Date;
  /** GITDEX_INDEXED_PULLS and the closed retention: open pull requests are reconciled too. */
  pulls?: PullOptions;
}

const NODE_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Heals missed webhooks: a pass at start (visibility changed while gitdex was down applies at
 * once), then one every interval; drifted refs are queued for a backfill. Only the process
 * holding the reconciler lease runs passes (every indexer process starts this; see
 * docs/design/reconciler.md), and the wait after a pass is what keeps its GitHub requests
 * within the budget share. Its status goes to /readyz, /metrics (when `registry` is given) and the log.
 */
export function startReconciler(adapters: Adapters, intervalSeconds: number, log: Logger, registry?: Registry, timers?: Timers, options: ReconcilerOptions = {}): ReconcileSchedule {
  const now = options.now ?? (() => new Date());
  const lease = new ReconcilerLease({
    leases: adapters.leases,
    holder: options.holder ?? `${hostname()}:${process.pid}`,
    ...(options.leaseTtlMs ? { ttlMs: options.leaseTtlMs } : {}),
    now,
    timers: timers ?? NODE_TIMERS,
  });
  const budget = { share: options.budgetShare ?? 0.1, limitPerHour: GITHUB_HOURLY_LIMIT, minimumSeconds: intervalSeconds };
  let record: ((result: PassResult) => void) | undefined;
  const schedule = new ReconcileSchedule({
    pass: () =>
      leasedPass(lease, (stillHeld) =>
        reconcile({
          index: adapters.index,
          history: { store: adapters.history },
          source: adapters.source,
          publisher: adapters.publisher,
          now,
          stillHeld,
          ...(options.pulls ? { pulls: options.pulls } : {}),
        }),
      ),
    intervalSeconds,
    nextIntervalSeconds: (result) => budgetedIntervalSeconds(result.report, budget),
    onStop: () => lease.stop(),
    now,
    ...(timers ? { timers } : {}),
    onPass: (result) => {
      record?.(result);
      logPass(log, result);
    },
  });
  if (registry) record = createReconcilerMetrics(registry, () => schedule.status());
  lease.start();
  schedule.start();
  return schedule;
}

function logPass(log: Logger, result: PassResult): void {
  const seconds = (result.finishedAt.getTime() - result.startedAt.getTime()) / 1000;
  const report = result.report;
  if (!report) {
    log.error({ ...errorFields(result.error), seconds }, 'reconciler pass failed');
    return;
  }
  if (report.heldBy && report.checked === 0) {
    log.info({ heldBy: report.heldBy }, 'reconciler pass left to the lease holder');
    return;
  }
  const fields = { checked: report.checked, drifted: report.drifted, metadata: report.metadata, membership: report.membership, failed: report.failed, requests: report.requests, seconds };
  if (result.problem) log.warn({ ...fields, problem: result.problem }, 'reconciler pass did not complete');
  else if (report.drifted.length > 0 || report.metadata.length > 0 || report.membership.added.length > 0 || report.membership.removed.length > 0)
    log.warn(fields, 'reconciler applied metadata changes and queued drifted refs');
  else log.info({ checked: report.checked, requests: report.requests, seconds }, 'reconciler found no drift');
}
