import type { EventOutcome } from './handle-event';
import type { IndexerMetrics } from './metrics';

/** Counts what indexing one event parsed and stored beside the content: symbols by status, version blames by outcome. */
export function countOutcome(metrics: Pick<IndexerMetrics, 'symbolBlobs' | 'versionBlames'>, outcome: EventOutcome): void {
  if (outcome.action !== 'synced') return;
  for (const { outcome: indexed } of outcome.refs) {
    if (indexed === 'deleted') continue;
    if (indexed.status === 'indexed' && indexed.symbols) {
      for (const [status, count] of Object.entries(indexed.symbols) as [string, number][]) if (count > 0) metrics.symbolBlobs.inc({ status }, count);
    }
    const blames = indexed.blames;
    if (!blames) continue;
    // A failed blame is counted once, as failed: the stats count it among the skipped too.
    const outcomes = { stored: blames.stored, skipped: blames.skipped - blames.failed, failed: blames.failed };
    for (const [name, count] of Object.entries(outcomes)) if (count > 0) metrics.versionBlames.inc({ outcome: name }, count);
  }
}
