import type { estypes } from '@elastic/elasticsearch';
import type { FileSummary, FolderCount, FolderScope, IndexStats, Snapshot } from '@gitdex/ports';
import { MAX_PAGE, readOptions, searchSorted, sourcesOf, type StoreContext } from './context';
import { SUMMARY_SOURCE, afterPathValues } from './file-reads';
import { depthOf, foldersBelowPattern, underFolder, visibleQuery } from './queries';

/** listFolders never answers more folders than this. */
export const MAX_FOLDERS = 10_000;
/** Beyond this many levels, the depth regex is bounded by the deepest file instead (keeps the automaton small). */
const REGEX_LEVELS = 16;

type Aggs = Record<string, estypes.AggregationsAggregate>;

function termsBuckets(aggs: Aggs | undefined, name: string): estypes.AggregationsStringTermsBucket[] {
  const agg = aggs?.[name] as estypes.AggregationsStringTermsAggregate | undefined;
  return (agg?.buckets ?? []) as estypes.AggregationsStringTermsBucket[];
}

/**
 * Folders below the scope with the number of visible files under each: a terms
 * aggregation over `ancestors` of the visible files under the folder, keeping only the
 * folders 1..depth levels down (regex include), in key order (= path order, exact).
 */
export async function listFolders(ctx: StoreContext, scope: FolderScope): Promise<FolderCount[]> {
  if (scope.depth <= 0) return [];
  const query = visibleQuery(scope, ...underFolder(scope.folder));
  let levels = scope.depth;
  if (levels > REGEX_LEVELS) {
    const response = await ctx.client.search({ index: ctx.files, size: 0, track_total_hits: false, query, aggs: { deepest: { max: { field: 'depth' } } } }, readOptions(ctx));
    const deepest = (response.aggregations?.deepest as estypes.AggregationsMaxAggregate | undefined)?.value ?? 0;
    // A file at depth n has folders down to depth n - 1.
    levels = Math.min(levels, deepest - 1 - depthOf(scope.folder));
    if (levels <= 0) return [];
  }
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 0,
      track_total_hits: false,
      query,
      aggs: {
        folders: {
          terms: { field: 'ancestors', include: foldersBelowPattern(scope.folder, levels), order: { _key: 'asc' }, size: MAX_FOLDERS },
        },
      },
    },
    readOptions(ctx),
  );
  return termsBuckets(response.aggregations, 'folders').map((bucket) => ({ path: String(bucket.key), fileCount: bucket.doc_count }));
}

export async function listFiles(ctx: StoreContext, scope: FolderScope, afterPath: string | null, limit: number): Promise<{ files: FileSummary[]; total: number }> {
  const query = visibleQuery(scope, ...underFolder(scope.folder), { range: { depth: { lte: depthOf(scope.folder) + scope.depth } } });
  const sort: estypes.Sort = [{ path: 'asc' }, { fromGeneration: 'asc' }];
  // search_after (not a range) keeps the total about the whole scope.
  const searchAfter = afterPath === null ? undefined : afterPathValues(afterPath);
  const size = Math.max(0, Math.min(limit, MAX_PAGE));
  const first = await ctx.client.search<FileSummary>(
    {
      index: ctx.files,
      query,
      sort,
      size,
      track_total_hits: true,
      _source: SUMMARY_SOURCE,
      ...(searchAfter ? { search_after: searchAfter } : {}),
    },
    readOptions(ctx),
  );
  const total = typeof first.hits.total === 'number' ? first.hits.total : (first.hits.total?.value ?? 0);
  const hits = first.hits.hits;
  const last = hits[hits.length - 1];
  if (limit > size && hits.length === size && last?.sort) {
    hits.push(...(await searchSorted<FileSummary>(ctx, { index: ctx.files, query, sort, _source: SUMMARY_SOURCE, search_after: last.sort }, limit - size)));
  }
  return { files: sourcesOf(hits), total };
}

export async function stats(ctx: StoreContext, snapshot: Snapshot): Promise<IndexStats> {
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 0,
      track_total_hits: true,
      query: visibleQuery(snapshot),
      aggs: {
        languages: { terms: { field: 'language', size: 10_000 } },
        categories: { terms: { field: 'category', size: 100 } },
        bytes: { sum: { field: 'size' } },
      },
    },
    readOptions(ctx),
  );
  const total = typeof response.hits.total === 'number' ? response.hits.total : (response.hits.total?.value ?? 0);
  const counts = (name: string) => Object.fromEntries(termsBuckets(response.aggregations, name).map((bucket) => [String(bucket.key), bucket.doc_count]));
  const bytes = (response.aggregations?.bytes as estypes.AggregationsSumAggregate | undefined)?.value ?? 0;
  return { fileCount: total, languages: counts('languages'), categories: counts('categories'), totalBytes: Math.round(bytes) };
}
