import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PassResult, ReconcilerStatus } from './reconcile-schedule';

/**
 * The reconciler's series on /metrics. An alert needs no arithmetic: `gitdex_reconciler_late`
 * and `gitdex_reconciler_failing` are 1 while a pass is overdue or the last one failed (read from
 * the schedule at each scrape); the timestamps say since when.
 */
export function createReconcilerMetrics(registry: Registry, status: () => ReconcilerStatus): (result: PassResult) => void {
  const registers = [registry];
  const lastSuccess = new Gauge({ name: 'gitdex_reconciler_last_success_timestamp_seconds', help: 'End of the last reconciler pass that reached every repository and ref (Unix time)', registers });
  const lastFailure = new Gauge({ name: 'gitdex_reconciler_last_failure_timestamp_seconds', help: 'End of the last reconciler pass that failed or was stopped (Unix time)', registers });
  const duration = new Histogram({
    name: 'gitdex_reconciler_pass_seconds',
    help: 'Time a reconciler pass took',
    labelNames: ['outcome'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers,
  });
  const passes = new Counter({ name: 'gitdex_reconciler_passes_total', help: 'Reconciler passes by outcome (success or failure)', labelNames: ['outcome'], registers });
  new Gauge({
    name: 'gitdex_reconciler_late',
    help: '1 when no reconciler pass succeeded for more than two intervals',
    registers,
    collect() {
      this.set(status().late ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gitdex_reconciler_failing',
    help: '1 when the last reconciler pass failed',
    registers,
    collect() {
      this.set(status().lastError === null ? 0 : 1);
    },
  });
  new Gauge({ name: 'gitdex_reconciler_interval_seconds', help: 'Time between the end of a reconciler pass and the start of the next', registers }).set(status().intervalSeconds);
  return (result) => {
    const outcome = result.problem === null ? 'success' : 'failure';
    (outcome === 'success' ? lastSuccess : lastFailure).set(result.finishedAt.getTime() / 1000);
    duration.observe({ outcome }, (result.finishedAt.getTime() - result.startedAt.getTime()) / 1000);
    passes.inc({ outcome });
  };
}
