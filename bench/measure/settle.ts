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
