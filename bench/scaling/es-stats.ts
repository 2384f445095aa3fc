// What Elasticsearch wrote for a set of indices (one prefix): documents indexed, bytes of bulk
// requests, size on disk, on primaries and in total (with replicas), from the index stats API.
export interface EsWriteStats {
  /** Documents indexed (index operations, updates included) on primary shards. */
  primaryDocsIndexed: number;
  /** The same on every copy (primaries + replicas). */
  totalDocsIndexed: number;
  /** Bytes of the bulk requests the primary shards received; null when the node does not report bulk stats. */
  primaryBulkBytes: number | null;
  totalBulkBytes: number | null;
  primaryStoreBytes: number;
  totalStoreBytes: number;
  /** Live documents now (primaries). */
  primaryDocs: number;
}

interface StatsSection {
  indexing?: { index_total?: number };
  bulk?: { total_size_in_bytes?: number };
  store?: { size_in_bytes?: number };
  docs?: { count?: number };
}

export async function esWriteStats(elasticsearchUrl: string, indexPrefix: string): Promise<EsWriteStats> {
  const nodes = elasticsearchUrl
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  let last: unknown;
  for (const node of nodes) {
    try {
      let answer = await fetch(`${node}/${indexPrefix}-*/_stats/indexing,bulk,store,docs?expand_wildcards=all`, { signal: AbortSignal.timeout(15_000) });
      // A version without index-level bulk stats rejects the metric: ask without it.
      if (answer.status === 400) answer = await fetch(`${node}/${indexPrefix}-*/_stats/indexing,store,docs?expand_wildcards=all`, { signal: AbortSignal.timeout(15_000) });
      if (answer.status !== 200) throw new Error(`${node} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
      const body = (await answer.json()) as { _all: { primaries: StatsSection; total: StatsSection } };
      const p = body._all.primaries;
      const t = body._all.total;
      return {
        primaryDocsIndexed: p.indexing?.index_total ?? 0,
        totalDocsIndexed: t.indexing?.index_total ?? 0,
        primaryBulkBytes: p.bulk?.total_size_in_bytes ?? null,
        totalBulkBytes: t.bulk?.total_size_in_bytes ?? null,
        primaryStoreBytes: p.store?.size_in_bytes ?? 0,
        totalStoreBytes: t.store?.size_in_bytes ?? 0,
        primaryDocs: p.docs?.count ?? 0,
      };
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

/** after - before, field by field (null stays null). */
export function esDelta(before: EsWriteStats, after: EsWriteStats): EsWriteStats {
  const d = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
  return {
    primaryDocsIndexed: after.primaryDocsIndexed - before.primaryDocsIndexed,
    totalDocsIndexed: after.totalDocsIndexed - before.totalDocsIndexed,
    primaryBulkBytes: d(after.primaryBulkBytes, before.primaryBulkBytes),
    totalBulkBytes: d(after.totalBulkBytes, before.totalBulkBytes),
    primaryStoreBytes: after.primaryStoreBytes - before.primaryStoreBytes,
    totalStoreBytes: after.totalStoreBytes - before.totalStoreBytes,
    primaryDocs: after.primaryDocs - before.primaryDocs,
  };
}

export interface IndexSize {
  index: string;
  docs: number;
  /** Primary store, bytes. */
  primaryStoreBytes: number;
  /** Every copy, bytes. */
  storeBytes: number;
}

/** Documents and store size of each physical index of the prefix (_cat/indices). */
export async function indexSizes(elasticsearchUrl: string, indexPrefix: string): Promise<IndexSize[]> {
  const node = elasticsearchUrl.split(',')[0]!.trim();
  // Flush the write buffers to segments first, so the store size counts what was written.
  await fetch(`${node}/${indexPrefix}-*/_refresh?expand_wildcards=all`, { method: 'POST', signal: AbortSignal.timeout(30_000) });
  const answer = await fetch(`${node}/_cat/indices/${indexPrefix}-*?format=json&bytes=b&h=index,docs.count,store.size,pri.store.size&expand_wildcards=all`, { signal: AbortSignal.timeout(15_000) });
  if (answer.status !== 200) throw new Error(`_cat/indices answered ${answer.status}`);
  const rows = (await answer.json()) as { index: string; 'docs.count': string; 'store.size': string; 'pri.store.size': string }[];
  return rows
    .map((r) => ({ index: r.index, docs: Number(r['docs.count']), primaryStoreBytes: Number(r['pri.store.size']), storeBytes: Number(r['store.size']) }))
    .sort((a, b) => a.index.localeCompare(b.index));
}
