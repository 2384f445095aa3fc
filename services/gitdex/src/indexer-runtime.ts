import type { Env } from '@gitdex/contracts';
import type { Logger } from '@gitdex/observability';
import { createBatchHandler, DEFAULT_INDEX_REF_OPTIONS, type IndexerMetrics, DEFAULT_RETRY_POLICY, reconcile, RefSelection } from '@gitdex/indexer';
import type { Adapters } from './adapters';

/** Starts the indexer worker on the adapters; resolves once it joined the consumer group. */
export async function startIndexer(adapters: Adapters, env: Env, log: Logger, metrics: IndexerMetrics): Promise<{ stop(): Promise<void>; healthy(): boolean }> {
  const consumer = adapters.consumer();
  const handler = createBatchHandler({
    index: adapters.index,
    source: adapters.source,
    deadLetters: adapters.deadLetters,
    refs: new RefSelection(env.GITDEX_INDEXED_REFS),
    anonymousBackfillCap: { maxFiles: env.GITDEX_ANONYMOUS_BACKFILL_MAX_FILES, maxBytes: env.GITDEX_ANONYMOUS_BACKFILL_MAX_BYTES },
    options: { ...DEFAULT_INDEX_REF_OPTIONS, maxFileBytes: env.GITDEX_MAX_FILE_BYTES, retainedGenerations: env.GITDEX_RETAINED_COMMITS },
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: env.GITDEX_MAX_ATTEMPTS, retryBudgetMs: env.GITDEX_RETRY_BUDGET_SECONDS * 1000 },
    now: () => new Date(),
    log,
    metrics,
    onIndexed: (event, _ref, outcome) => {
      if (outcome.status === 'indexed') metrics.freshnessSeconds.observe((Date.now() - Date.parse(event.receivedAt)) / 1000);
    },
  });
  await adapters.index.ensureReady();
  await consumer.start(handler);
  const lagTimer = setInterval(() => {
    consumer.lag().then(
      (lag) => metrics.lag.set(lag),
      () => undefined,
    );
  }, 10_000);
  lagTimer.unref();
  const reconcileTimer = env.GITDEX_RECONCILE_INTERVAL_SECONDS > 0 ? startReconciler(adapters, env.GITDEX_RECONCILE_INTERVAL_SECONDS, log) : undefined;
  log.info({ eventLog: adapters.engines.eventLog, index: adapters.engines.index }, 'indexer started');
  return {
    healthy: () => consumer.healthy,
    async stop() {
      clearInterval(lagTimer);
      if (reconcileTimer) clearInterval(reconcileTimer);
      await consumer.stop();
    },
  };
}

/** Heals missed webhooks on an interval: drifted refs are queued for a backfill. */
function startReconciler(adapters: Adapters, seconds: number, log: Logger): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcile({ index: adapters.index, source: adapters.source, publisher: adapters.publisher, now: () => new Date() })
      .then((report) => {
        if (report.drifted.length > 0 || report.failed.length > 0) log.warn({ ...report }, 'reconciler queued drifted refs');
        else log.info({ checked: report.checked }, 'reconciler found no drift');
      })
      .catch((error: unknown) => log.error({ err: error }, 'reconciler failed'))
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return timer;
}
