/**
 * What the indexer reports, as the smallest shapes it calls: the core never sees a metrics
 * library (prometheus-metrics.ts plugs prom-client in at the entry point).
 */
export interface CounterLike<L extends string = never> {
  inc(labels: Partial<Record<L, string>>, value?: number): void;
  inc(): void;
}

export interface GaugeLike<L extends string = never> {
  set(labels: Partial<Record<L, string>>, value: number): void;
  set(value: number): void;
}

export interface HistogramLike<L extends string = never> {
  startTimer(labels?: Partial<Record<L, string>>): (labels?: Partial<Record<L, string>>) => number;
  observe(value: number): void;
}

export interface IndexerMetrics {
  events: CounterLike<'kind' | 'outcome'>;
  indexSeconds: HistogramLike<'strategy'>;
  freshnessSeconds: HistogramLike;
  retries: CounterLike<'code'>;
  deadLetters: CounterLike;
  lag: GaugeLike;
  githubRateLimitRemaining: GaugeLike<'resource'>;
  /** Blobs of indexed files in a parsed language, by what their symbols came to: parsed, failed, skipped or reused. */
  symbolBlobs: CounterLike<'status'>;
  /** File versions of new commits whose blame was stored, skipped (left to the reader) or failed. */
  versionBlames: CounterLike<'outcome'>;
}
