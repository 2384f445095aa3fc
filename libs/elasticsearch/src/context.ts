import type { estypes } from '@elastic/elasticsearch';
import type { BulkContext, BulkTarget } from './bulk';
import type { SymbolNameList } from './symbol-name-list';

/** Everything the store's parts need: the client, names and bulk settings. */
export interface StoreContext extends BulkContext {
  /** Aliases of the files, repos and blobs indices. */
  files: string;
  repos: string;
  blobs: string;
  /** Each repository's definition names, for "did you mean" (symbol-name-list.ts). */
  names: SymbolNameList;
  /** See ElasticsearchIndexStoreOptions.searchShaJoinLimit. */
  shaJoinLimit: number;
  /** The reader's signal for this call (IndexCallOptions): its requests are aborted when the caller gives up. */
  signal?: AbortSignal;
}

/** Transport options of a read: the caller's signal, so the client aborts a request nobody waits for. */
export function readOptions(ctx: StoreContext): { signal?: AbortSignal } {
  return ctx.signal ? { signal: ctx.signal } : {};
}

/** Writes to file documents: bulk, no refresh (refresh() makes them searchable). */
export function filesTarget(ctx: StoreContext): BulkContext & BulkTarget {
  return { ...ctx, index: ctx.files, requireAlias: true, refresh: false };
}

/** Writes to blobs: like file entries, not refreshed (the indexer's refresh covers both). */
export function blobsTarget(ctx: StoreContext): BulkContext & BulkTarget {
  return { ...ctx, index: ctx.blobs, requireAlias: true, refresh: false };
}

/** Writes to repositories and ref states: refreshed at once, so a flip is visible to the next search. */
export function reposTarget(ctx: StoreContext): BulkContext & BulkTarget {
  return { ...ctx, index: ctx.repos, requireAlias: true, refresh: true };
}

/** Elasticsearch answers at most this many hits per request (index.max_result_window). */
export const MAX_PAGE = 10_000;

type SortedRequest = Omit<estypes.SearchRequest, 'size' | 'search_after' | 'track_total_hits'> & { search_after?: estypes.SortResults };

/**
 * Up to `limit` hits of a sorted search, across as many requests as needed (search_after
 * on the sort values), so a caller's limit is honoured whatever max_result_window is.
 */
export async function searchSorted<T>(ctx: StoreContext, request: SortedRequest, limit: number): Promise<estypes.SearchHit<T>[]> {
  const hits: estypes.SearchHit<T>[] = [];
  let after = request.search_after;
  while (hits.length < limit) {
    const size = Math.min(limit - hits.length, MAX_PAGE);
    const response = await ctx.client.search<T>({ ...request, size, track_total_hits: false, ...(after ? { search_after: after } : {}) }, readOptions(ctx));
    const page = response.hits.hits;
    hits.push(...page);
    const last = page[page.length - 1];
    if (page.length < size || !last?.sort) break;
    after = last.sort;
  }
  return hits;
}

export function sourcesOf<T>(hits: estypes.SearchHit<T>[]): T[] {
  return hits.map((hit) => hit._source as T);
}
