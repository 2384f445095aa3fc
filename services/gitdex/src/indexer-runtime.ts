import type { Env } from '@gitdex/contracts';
import type { Registry } from 'prom-client';
import type { Logger } from '@gitdex/observability';
import { createBatchHandler, DEFAULT_INDEX_REF_OPTIONS, type IndexerMetrics, DEFAULT_RETRY_POLICY, RefSelection, type ReconcileSchedule } from '@gitdex/indexer';
import { startReconciler } from './reconciler-runtime';
import type { Adapters } from './adapters';
import { symbolParsingOf } from './symbol-parsing';

/** Starts the indexer worker on the adapters; resolves once it joined the consumer group. */
export async function startIndexer(
  adapters: Adapters,
  env: Env,
  log: Logger,
  metrics: IndexerMetrics,
  registry?: Registry,
): Promise<{ stop(): Promise<void>; healthy(): boolean; reconciler: ReconcileSchedule | undefined }> {
  const consumer = adapters.consumer();
  const pulls = { indexed: env.GITDEX_INDEXED_PULLS, closedRetentionSeconds: env.GITDEX_CLOSED_PULL_RETENTION };
  const symbols = symbolParsingOf(env, adapters.index);
  const handler = createBatchHandler({
    index: adapters.index,
    source: adapters.source,
    deadLetters: adapters.deadLetters,
    refs: new RefSelection(env.GITDEX_INDEXED_REFS),
    pulls,
    anonymousBackfillCap: { maxFiles: env.GITDEX_ANONYMOUS_BACKFILL_MAX_FILES, maxBytes: env.GITDEX_ANONYMOUS_BACKFILL_MAX_BYTES },
    options: { ...DEFAULT_INDEX_REF_OPTIONS, maxFileBytes: env.GITDEX_MAX_FILE_BYTES, retainedGenerations: env.GITDEX_RETAINED_COMMITS },
    history: { store: adapters.history, options: { depth: env.GITDEX_HISTORY_DEPTH, maxBlobBytes: env.GITDEX_MAX_FILE_BYTES, concurrency: 8 } },
    retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: env.GITDEX_MAX_ATTEMPTS, retryBudgetMs: env.GITDEX_RETRY_BUDGET_SECONDS * 1000 },
    now: () => new Date(),
    ...(symbols ? { symbols: symbols.parsing } : {}),
    log,
    metrics,
    onIndexed: (event, _ref, outcome) => {
      if (outcome.status === 'indexed') metrics.freshnessSeconds.observe((Date.now() - Date.parse(event.receivedAt)) / 1000);
    },
  });
  await adapters.index.ensureReady();
  await adapters.history.ensureHistoryReady();
  await consumer.start(handler);
  const lagTimer = setInterval(() => {
    consumer.lag().then(
      (lag) => metrics.lag.set(lag),
      () => undefined,
    );
  }, 10_000);
  lagTimer.unref();
  const reconciler =
    env.GITDEX_RECONCILE_INTERVAL_SECONDS > 0
      ? startReconciler(adapters, env.GITDEX_RECONCILE_INTERVAL_SECONDS, log, registry, undefined, { budgetShare: env.GITDEX_RECONCILE_BUDGET_SHARE, pulls })
      : undefined;
  log.info({ eventLog: adapters.engines.eventLog, index: adapters.engines.index }, 'indexer started');
  return {
    healthy: () => consumer.healthy,
    reconciler,
    async stop() {
      clearInterval(lagTimer);
      await reconciler?.stop();
      await consumer.stop();
      await symbols?.close();
    },
  };
}
