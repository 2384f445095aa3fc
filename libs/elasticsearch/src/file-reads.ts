import type { estypes } from '@elastic/elasticsearch';
import { type FileDocument } from '@gitdex/contracts';
import { compareCodePoints } from '@gitdex/terms';
import type { FileSummary, Snapshot, SuggestCandidate, SuggestQuery, VisibleEntry } from '@gitdex/ports';
import { readOptions, searchSorted, sourcesOf, type StoreContext } from './context';
import { scopeFilter, suggestClauses, visibleFilter, visibleQuery } from './queries';
import { joinBlobs, type FileEntry } from './blobs';
import { valueOfEvery } from './doc-values';

/**
 * Entry fields come from doc values, and no stored field is loaded (not even _id): reading
 * stored fields decompresses blocks that hold the content, which would dominate.
 */
const ENTRY_FIELDS = ['path', 'blobSha', 'kind', 'fromGeneration'];
const docValuesOnly = (fields: string[]) => ({ stored_fields: '_none_', docvalue_fields: fields });
const fromDocValues = docValuesOnly(ENTRY_FIELDS);
/** search_after values that pass every version of `path` in PATH_ORDER (cheaper than a range on path). */
export const afterPathValues = (path: string): estypes.SortResults => [path, Number.MAX_SAFE_INTEGER];
export const SUMMARY_SOURCE: estypes.SearchSourceConfig = { excludes: ['content', 'tokens', 'trigrams', 'contentBase64'] };
/** Path order; fromGeneration only breaks ties between versions that should not both be visible. */
const PATH_ORDER: estypes.Sort = [{ path: 'asc' }, { fromGeneration: 'asc' }];
/** Paths per terms query in lookupEntries (index.max_terms_count is 65,536). */
const LOOKUP_CHUNK = 1000;

function entryOf(hit: estypes.SearchHit<unknown>): VisibleEntry {
  return {
    path: valueOfEvery<string>(hit, 'path'),
    blobSha: valueOfEvery<string>(hit, 'blobSha'),
    kind: valueOfEvery<VisibleEntry['kind']>(hit, 'kind'),
    fromGeneration: Number(valueOfEvery<number>(hit, 'fromGeneration')),
  };
}

export async function visibleEntries(ctx: StoreContext, snapshot: Snapshot, afterPath: string | null, limit: number): Promise<VisibleEntry[]> {
  if (limit <= 0) return [];
  const after = afterPath === null ? {} : { search_after: afterPathValues(afterPath) };
  const hits = await searchSorted(ctx, { index: ctx.files, query: visibleQuery(snapshot), sort: PATH_ORDER, ...after, ...fromDocValues }, limit);
  return hits.map(entryOf);
}

export async function lookupEntries(ctx: StoreContext, snapshot: Snapshot, paths: string[]): Promise<VisibleEntry[]> {
  // Sorted and de-duplicated, so chunk answers (each in path order) concatenate in path order.
  const unique = [...new Set(paths)].sort(compareCodePoints);
  const result: VisibleEntry[] = [];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const chunk = unique.slice(i, i + LOOKUP_CHUNK);
    const hits = await searchSorted(ctx, { index: ctx.files, query: visibleQuery(snapshot, { terms: { path: chunk } }), sort: PATH_ORDER, ...fromDocValues }, Infinity);
    result.push(...hits.map(entryOf));
  }
  return result;
}

export async function visibleFiles(ctx: StoreContext, snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number): Promise<FileDocument[]> {
  if (limit <= 0) return [];
  const after = afterPath === null ? {} : { search_after: afterPathValues(afterPath) };
  const hits = await searchSorted<FileEntry>(ctx, { index: ctx.files, query: visibleQuery(snapshot, { range: { size: { lte: maxSize } } }), sort: PATH_ORDER, ...after }, limit);
  return joinBlobs(ctx, sourcesOf(hits));
}

export async function getFile(ctx: StoreContext, snapshot: Snapshot, path: string): Promise<FileDocument | null> {
  const hits = await searchSorted<FileEntry>(ctx, { index: ctx.files, query: visibleQuery(snapshot, { term: { path } }), sort: [{ fromGeneration: 'desc' }] }, 1);
  return (await joinBlobs(ctx, sourcesOf(hits)))[0] ?? null;
}

export async function suggestCandidates(ctx: StoreContext, snapshot: Snapshot, query: SuggestQuery): Promise<SuggestCandidate[]> {
  const should = suggestClauses(query);
  if (should.length === 0 || query.limit <= 0) return [];
  const hits = await searchSorted(
    ctx,
    {
      index: ctx.files,
      query: { bool: { filter: visibleFilter(snapshot), should, minimum_should_match: 1 } },
      sort: [{ _score: { order: 'desc' } }, { path: 'asc' }],
      track_scores: true,
      ...docValuesOnly(['path', 'blobSha']),
    },
    query.limit,
  );
  return hits.map((hit) => ({ path: valueOfEvery<string>(hit, 'path'), blobSha: valueOfEvery<string>(hit, 'blobSha'), score: hit._score ?? 0 }));
}

export async function findByBlobSha(ctx: StoreContext, snapshot: Snapshot, blobSha: string, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const hits = await searchSorted(ctx, { index: ctx.files, query: visibleQuery(snapshot, { term: { blobSha } }), sort: PATH_ORDER, ...docValuesOnly(['path']) }, limit);
  return hits.map((hit) => valueOfEvery<string>(hit, 'path'));
}

export async function findRetired(ctx: StoreContext, snapshot: Snapshot, path: string): Promise<FileSummary | null> {
  const query = {
    bool: {
      filter: [...scopeFilter(snapshot.repositoryId, snapshot.ref), { term: { path } }, { range: { retiredAtGeneration: { lte: snapshot.generation } } }],
    },
  };
  const hits = await searchSorted<FileSummary>(ctx, { index: ctx.files, query, sort: [{ retiredAtGeneration: 'desc' }, { fromGeneration: 'desc' }], _source: SUMMARY_SOURCE }, 1);
  return hits[0]?._source ?? null;
}

/** One aggregation: the distinct paths, in key (code point) order, exact on any number of shards. */
export async function retiredPaths(ctx: StoreContext, snapshot: Snapshot, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [...scopeFilter(snapshot.repositoryId, snapshot.ref), { range: { retiredAtGeneration: { lte: snapshot.generation } } }] } },
      aggs: { paths: { terms: { field: 'path', size: limit, order: { _key: 'asc' } } } },
    },
    readOptions(ctx),
  );
  const buckets = (response.aggregations?.paths as estypes.AggregationsStringTermsAggregate | undefined)?.buckets as estypes.AggregationsStringTermsBucket[] | undefined;
  return (buckets ?? []).map((bucket) => String(bucket.key));
}

/** One request: a filters aggregation with one bucket per snapshot. */
export async function snapshotsWithPath(ctx: StoreContext, snapshots: Snapshot[], path: string): Promise<Snapshot[]> {
  if (snapshots.length === 0) return [];
  const filters = Object.fromEntries(snapshots.map((snapshot, i) => [String(i), { bool: { filter: visibleFilter(snapshot) } }]));
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { path } }] } },
      aggs: { snapshots: { filters: { filters } } },
    },
    readOptions(ctx),
  );
  const buckets = (response.aggregations?.snapshots as estypes.AggregationsFiltersAggregate | undefined)?.buckets as Record<string, estypes.AggregationsFiltersBucket> | undefined;
  return snapshots.filter((_, i) => (buckets?.[String(i)]?.doc_count ?? 0) > 0);
}
