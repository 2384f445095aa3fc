export { createBatchHandler, coalesce, WorkerStopping, type WorkerDeps, type WorkerLog } from './worker';
export { handleEvent, type HandleEventDeps, type EventOutcome } from './handle-event';
export { indexRef, emptyRefState, DEFAULT_INDEX_REF_OPTIONS, type IndexRefOptions, type IndexRefDeps, type IndexOutcome, type RefTarget } from './index-ref';
export { RefSelection, branchOf } from './ref-selection';
export { createIndexerMetrics, type IndexerMetrics } from './metrics';
export { DEFAULT_RETRY_POLICY, delayBeforeRetry, type RetryPolicy } from './retry-policy';
export { buildDocument, gitBlobSha, type FetchedEntry, type DocumentContext } from './build-document';
export { DEFAULT_PATH_RULES, classifyPath, type PathRules } from './classify/vendored';
export { reconcile, type ReconcileDeps, type ReconcileReport, type Drift } from './reconcile';
