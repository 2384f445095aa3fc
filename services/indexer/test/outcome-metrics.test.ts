import { Registry } from 'prom-client';
import { countOutcome } from '../src/outcome-metrics';
import { createIndexerMetrics } from '../src/prometheus-metrics';

describe('countOutcome', () => {
  it('counts symbols by status and version blames by outcome, a failed blame once', async () => {
    const registry = new Registry();
    const metrics = createIndexerMetrics(registry);
    const indexed = { status: 'indexed' as const, strategy: 'incremental' as const, commitSha: 'a', generation: 2, written: 3, retired: 0, fileCount: 3, treesFetched: 1 };
    countOutcome(metrics, {
      action: 'synced',
      refs: [
        { ref: 'refs/heads/main', outcome: { ...indexed, symbols: { parsed: 2, failed: 1, skipped: 0, reused: 4 }, blames: { stored: 5, skipped: 3, failed: 1, bytes: 900 } } },
        { ref: 'refs/heads/old', outcome: 'deleted' },
        { ref: 'refs/heads/quiet', outcome: { status: 'unchanged', commitSha: 'b', blames: { stored: 1, skipped: 0, failed: 0, bytes: 10 } } },
      ],
    });
    countOutcome(metrics, { action: 'skipped', reason: 'not ours' });
    const text = await registry.metrics();
    const value = (series: string) => Number(new RegExp(`^${series} (\\d+)`, 'm').exec(text)?.[1]);
    expect(value('gitdex_indexer_symbol_blobs_total\\{status="parsed"\\}')).toBe(2);
    expect(value('gitdex_indexer_symbol_blobs_total\\{status="failed"\\}')).toBe(1);
    expect(value('gitdex_indexer_symbol_blobs_total\\{status="reused"\\}')).toBe(4);
    expect(text).not.toMatch(/symbol_blobs_total\{status="skipped"\}/);
    expect(value('gitdex_indexer_version_blames_total\\{outcome="stored"\\}')).toBe(6);
    expect(value('gitdex_indexer_version_blames_total\\{outcome="skipped"\\}')).toBe(2);
    expect(value('gitdex_indexer_version_blames_total\\{outcome="failed"\\}')).toBe(1);
  });
});
