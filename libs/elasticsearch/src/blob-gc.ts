import type { estypes } from '@elastic/elasticsearch';
import { bulkWrite } from './bulk';
import { blobsTarget, filesTarget, type StoreContext } from './context';
import { value } from './doc-values';
import { blobId, symbolsId } from './blobs';
import { scrollHits } from './scan';
import { nameDeletes } from './symbol-names';

/** Shas per reference check (one terms aggregation each; index.max_terms_count is 65,536). */
const CHECK_CHUNK = 5000;

/** Deletes the entries matching the query (after a refresh, so recent writes are included); answers the blob shas they held. */
export async function deleteEntries(ctx: StoreContext, query: estypes.QueryDslQueryContainer): Promise<Set<string>> {
  const target = filesTarget(ctx);
  await ctx.client.indices.refresh({ index: ctx.files });
  const shas = new Set<string>();
  for await (const hits of scrollHits(ctx.client, { index: ctx.files, query, docvalue_fields: ['blobSha'] })) {
    for (const hit of hits) {
      const sha = value<string>(hit, 'blobSha');
      if (sha !== undefined) shas.add(sha);
    }
    await bulkWrite(
      target,
      hits.map((hit) => ({ action: 'delete' as const, id: hit._id as string })),
    );
  }
  return shas;
}

/** The definition names of these blobs' symbols documents (real time), by sha. */
async function storedNames(ctx: StoreContext, repositoryId: number, shas: string[]): Promise<Map<string, string[]>> {
  const response = await ctx.client.mget<{ blobSha?: string; symbolNames?: string[] }>({
    index: ctx.blobs,
    ids: shas.map((sha) => symbolsId(repositoryId, sha)),
    _source_includes: ['blobSha', 'symbolNames'],
  });
  const names = new Map<string, string[]>();
  for (const doc of response.docs) {
    if ('found' in doc && doc.found && doc._source?.blobSha !== undefined && doc._source.symbolNames) names.set(doc._source.blobSha, doc._source.symbolNames);
  }
  return names;
}

/**
 * Deletes the blobs of these shas that no entry of the repository holds any more (entries of
 * every ref, retired or not, and entries still holding their content inline: all name their
 * blob's sha). Check-then-delete is safe because one repository's writes are serialized by the
 * indexer: no put of this repository can add a reference between the check and the delete. The
 * blob migration only ever adds blobs for entries that already name them, so it cannot race
 * either: at worst it re-creates a blob whose entry was just deleted, which costs disk only.
 */
export async function collectBlobs(ctx: StoreContext, repositoryId: number, shas: Set<string>): Promise<number> {
  if (shas.size === 0) return 0;
  await ctx.client.indices.refresh({ index: ctx.files });
  const all = [...shas];
  let deleted = 0;
  for (let i = 0; i < all.length; i += CHECK_CHUNK) {
    const chunk = all.slice(i, i + CHECK_CHUNK);
    const response = await ctx.client.search({
      index: ctx.files,
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { repositoryId } }, { terms: { blobSha: chunk } }] } },
      aggs: { held: { terms: { field: 'blobSha', size: chunk.length } } },
    });
    const buckets = (response.aggregations?.held as estypes.AggregationsStringTermsAggregate | undefined)?.buckets as estypes.AggregationsStringTermsBucket[] | undefined;
    const held = new Set((buckets ?? []).map((bucket) => String(bucket.key)));
    const unreferenced = chunk.filter((sha) => !held.has(sha));
    if (unreferenced.length === 0) continue;
    const names = await storedNames(ctx, repositoryId, unreferenced);
    await bulkWrite(
      blobsTarget(ctx),
      // The blob's symbols and name documents go with it (a missing one is no failure).
      unreferenced.flatMap((sha) => [
        { action: 'delete' as const, id: blobId(repositoryId, sha) },
        { action: 'delete' as const, id: symbolsId(repositoryId, sha) },
        ...nameDeletes(repositoryId, sha, names.get(sha) ?? []),
      ]),
    );
    deleted += unreferenced.length;
  }
  return deleted;
}
