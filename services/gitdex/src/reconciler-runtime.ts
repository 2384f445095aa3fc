import type { Registry } from 'prom-client';
import { errorFields, type Logger } from '@gitdex/observability';
import { createReconcilerMetrics, reconcile, ReconcileSchedule, type PassResult, type PullOptions, type Timers } from '@gitdex/indexer';
import type { Adapters } from './adapters';

/**
 * Heals missed webhooks: a pass at start (visibility changed while gitdex was down applies at
 * once), then one every interval; drifted refs are queued for a backfill. Its status goes to
 * /readyz, /metrics (when `registry` is given) and the log.
 */
export function startReconciler(adapters: Adapters, intervalSeconds: number, log: Logger, registry?: Registry, timers?: Timers, pulls?: PullOptions): ReconcileSchedule {
  let record: ((result: PassResult) => void) | undefined;
  const schedule = new ReconcileSchedule({
    pass: () => reconcile({ index: adapters.index, source: adapters.source, publisher: adapters.publisher, now: () => new Date(), ...(pulls ? { pulls } : {}) }),
    intervalSeconds,
    now: () => new Date(),
    ...(timers ? { timers } : {}),
    onPass: (result) => {
      record?.(result);
      logPass(log, result);
    },
  });
  if (registry) record = createReconcilerMetrics(registry, () => schedule.status());
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
  const fields = { checked: report.checked, drifted: report.drifted, metadata: report.metadata, failed: report.failed, requests: report.requests, seconds };
  if (result.problem) log.warn({ ...fields, problem: result.problem }, 'reconciler pass did not complete');
  else if (report.drifted.length > 0 || report.metadata.length > 0) log.warn(fields, 'reconciler applied metadata changes and queued drifted refs');
  else log.info({ checked: report.checked, requests: report.requests, seconds }, 'reconciler found no drift');
}
