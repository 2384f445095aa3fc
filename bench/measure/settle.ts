import { Client } from '@elastic/elasticsearch';

/**
 * Waits until Elasticsearch runs no segment merges (twice in a row, a second apart), at
 * most `maxMs`; answers how long it waited. After hundreds of MB of bulk writes the node
 * merges for minutes, on the same cores and disk the pipeline uses: a latency suite that
 * starts then measures the merges, not gitdex.
 */
export async function settleElasticsearch(url: string, maxMs = 180_000): Promise<{ waitedMs: number; settled: boolean }> {
  const client = new Client({ node: url });
  const started = performance.now();
  try {
    let quiet = 0;
    while (performance.now() - started < maxMs) {
      const stats = await client.nodes.stats({ metric: 'indices', index_metric: 'merge' });
      const running = Object.values(stats.nodes).reduce((sum, node) => sum + (node.indices?.merges?.current ?? 0), 0);
      quiet = running === 0 ? quiet + 1 : 0;
      if (quiet >= 2) return { waitedMs: performance.now() - started, settled: true };
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return { waitedMs: performance.now() - started, settled: false };
  } finally {
    await client.close();
  }
}

/**
 * Flushes every index (waiting for the flush) and then waits for merges to end: what a
 * timed write starts from. Without it the first raw bulk after the pipeline's full indexes
 * shared the disk and cores with the engine's flush of them, and took 28–41 s where the
 * second took 20–27 s (in five of six runs on the evening of 2026-12-03), a slower baseline that flattered
 * the pipeline's ratio.
 */
export async function quietElasticsearch(url: string): Promise<void> {
  const client = new Client({ node: url, requestTimeout: 300_000 });
  try {
    await client.indices.flush({ wait_if_ongoing: true });
  } finally {
    await client.close();
  }
  await settleElasticsearch(url);
}
