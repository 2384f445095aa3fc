import type { Client, estypes } from '@elastic/elasticsearch';
import { bulkWrite, type BulkContext, type BulkTarget } from './bulk';

interface ScanRequest {
  index: string;
  query: estypes.QueryDslQueryContainer;
  _source?: estypes.SearchSourceConfig;
  seq_no_primary_term?: boolean;
  docvalue_fields?: string[];
}

const PAGE = 1000;
const KEEP_ALIVE = '1m';

/**
 * Every hit of a query, a page at a time, from one consistent view (scroll: the minimal
 * distribution has no delete_by_query/update_by_query, and scroll needs no sort field).
 * The view is the last refresh: refresh first to include recent writes.
 */
export async function* scrollHits(client: Client, request: ScanRequest): AsyncGenerator<estypes.SearchHit<unknown>[]> {
  let response = await client.search({ ...request, size: PAGE, sort: ['_doc'], scroll: KEEP_ALIVE, _source: request._source ?? false });
  let scrollId = response._scroll_id;
  try {
    while (response.hits.hits.length > 0) {
      yield response.hits.hits;
      if (!scrollId) return;
      response = await client.scroll({ scroll_id: scrollId, scroll: KEEP_ALIVE });
      scrollId = response._scroll_id ?? scrollId;
    }
  } finally {
    // Best effort: a scroll that is not cleared expires after KEEP_ALIVE anyway.
    if (scrollId) await client.clearScroll({ scroll_id: scrollId }).catch(() => undefined);
  }
}

/** Deletes every document matching the query (after a refresh, so recent writes are included). */
export async function deleteMatching(ctx: BulkContext & BulkTarget, query: estypes.QueryDslQueryContainer): Promise<number> {
  await ctx.client.indices.refresh({ index: ctx.index });
  let deleted = 0;
  for await (const hits of scrollHits(ctx.client, { index: ctx.index, query })) {
    await bulkWrite(
      ctx,
      hits.map((hit) => ({ action: 'delete' as const, id: hit._id as string })),
    );
    deleted += hits.length;
  }
  return deleted;
}
