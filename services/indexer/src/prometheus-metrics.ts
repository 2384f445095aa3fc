import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { IndexerMetrics } from './metrics';

/** The indexer's metrics as Prometheus series in `registry` (served on /metrics). */
export function createIndexerMetrics(registry: Registry): IndexerMetrics {
  const registers = [registry];
  return {
    events: new Counter({ name: 'gitdex_indexer_events_total', help: 'Events handled by kind and outcome', labelNames: ['kind', 'outcome'], registers }),
    indexSeconds: new Histogram({
      name: 'gitdex_indexer_index_seconds',
      help: 'Time to index one ref to a new commit',
      labelNames: ['strategy'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
    freshnessSeconds: new Histogram({ name: 'gitdex_freshness_seconds', help: 'Webhook received to new content readable', buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60], registers }),
    retries: new Counter({ name: 'gitdex_indexer_retries_total', help: 'Retried attempts by error code', labelNames: ['code'], registers }),
    deadLetters: new Counter({ name: 'gitdex_indexer_dead_letters_total', help: 'Events sent to the dead letters', registers }),
    lag: new Gauge({ name: 'gitdex_indexer_consumer_lag', help: 'Events accepted by the log and not yet handled', registers }),
    githubRateLimitRemaining: new Gauge({ name: 'gitdex_github_rate_limit_remaining', help: 'Requests GitHub still allows in the current window', labelNames: ['resource'], registers }),
    symbolBlobs: new Counter({ name: 'gitdex_indexer_symbol_blobs_total', help: 'Blobs in a parsed language by symbol status: parsed, failed, skipped, reused', labelNames: ['status'], registers }),
    versionBlames: new Counter({
      name: 'gitdex_indexer_version_blames_total',
      help: "New file versions' blames by outcome: stored, skipped (left to the reader), failed",
      labelNames: ['outcome'],
      registers,
    }),
  };
}
