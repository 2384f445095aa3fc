import type { estypes } from '@elastic/elasticsearch';
import type { SymbolKind } from '@gitdex/contracts';
import type { ExactSymbolQuery, Snapshot, SymbolHit, SymbolPage, SymbolScope } from '@gitdex/ports';
import { nestingOf, TEST_NAME_REGEXP, TEST_PATH_REGEXP } from '@gitdex/terms';
import { blobId } from './blobs';
import { MAX_PAGE, readOptions, type StoreContext } from './context';
import { visibleFilter } from './queries';
import { type BlobDefinitions, FILE_FIELDS, fileOf, matchingDefinitions, scopeFilters } from './symbol-reads';

type Query = estypes.QueryDslQueryContainer;

/**
 * find_symbol's first page on Elasticsearch (docs/design/symbols-storage.md, "Ranked reads"):
 * the name documents give each blob's matching definitions, as for findSymbols; then one
 * msearch, one search per snapshot, sorts the visible files holding those blobs in file order
 * and fetches only the first `files`, while a `filters` aggregation counts them by how many
 * definitions their blob holds, which gives the total without fetching them.
 *
 * The file order is a score and two sorted fields: the score is the tier and the blob's least
 * nesting, each a sum of constant scores, and `depth` (folders + 1) and `path` follow it.
 */

/** Vendored or generated: the last tier. */
const COPY: Query = { bool: { should: [{ term: { 'flags.vendored': true } }, { term: { 'flags.generated': true } }], minimum_should_match: 1 } };
/** A test by its path: tierOf's rule as Lucene regular expressions (@gitdex/terms keeps both). */
const TEST: Query = {
  bool: {
    should: [{ regexp: { path: { value: TEST_PATH_REGEXP, case_insensitive: true } } }, { regexp: { path: { value: TEST_NAME_REGEXP } } }],
    minimum_should_match: 1,
  },
};

/** Shas of one repository's blobs grouped by a number (their least nesting, or how many definitions they hold). */
type Groups = Map<number, string[]>;

function add(groups: Groups, key: number, sha: string): void {
  const list = groups.get(key);
  if (list) list.push(sha);
  else groups.set(key, [sha]);
}

interface RepositoryBlobs {
  byNesting: Groups;
  byCount: Groups;
}

function blobsByRepository(definitions: Map<string, BlobDefinitions>): Map<number, RepositoryBlobs> {
  const byRepository = new Map<number, RepositoryBlobs>();
  for (const blob of definitions.values()) {
    let entry = byRepository.get(blob.repositoryId);
    if (!entry) byRepository.set(blob.repositoryId, (entry = { byNesting: new Map(), byCount: new Map() }));
    add(entry.byNesting, Math.min(...blob.definitions.map((d) => nestingOf(d.container))), blob.blobSha);
    add(entry.byCount, blob.definitions.length, blob.blobSha);
  }
  return byRepository;
}

/**
 * Scores that order files by tier, then by their blob's least nesting: a nesting group adds
 * from `groups` (the least) down to 1 (the most), and each tier above the last adds more than
 * all of them together. Whole numbers this small add up exactly in a float score.
 */
function orderQuery(byNesting: Groups, filter: Query[]): Query {
  const nestings = [...byNesting.keys()].sort((a, b) => a - b);
  const tierStep = nestings.length + 1;
  return {
    bool: {
      filter,
      // The blobs, one clause per nesting: every entry matches exactly one.
      must: [{ bool: { should: nestings.map((nesting, i): Query => ({ constant_score: { filter: { terms: { blobSha: byNesting.get(nesting) as string[] } }, boost: nestings.length - i } })) } }],
      should: [{ constant_score: { filter: { bool: { must_not: [COPY] } }, boost: tierStep } }, { constant_score: { filter: { bool: { must_not: [COPY, TEST] } }, boost: tierStep } }],
    },
  };
}

export async function rankedSymbols(ctx: StoreContext, snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }): Promise<SymbolPage> {
  if (query.files > MAX_PAGE) throw new RangeError(`rankedSymbols reads at most ${MAX_PAGE} files a snapshot, not ${query.files}`);
  const definitions = await matchingDefinitions(ctx, snapshots, query);
  const blobs = blobsByRepository(definitions);
  const asked: number[] = [];
  const searches: estypes.MsearchRequestItem[] = [];
  for (const [index, snapshot] of snapshots.entries()) {
    const repository = blobs.get(snapshot.repositoryId);
    if (!repository) continue;
    asked.push(index);
    searches.push({ index: ctx.files });
    searches.push({
      size: Math.max(query.files, 0),
      track_total_hits: false,
      query: orderQuery(repository.byNesting, [...visibleFilter(snapshot), { term: { kind: 'file' } }, ...scopeFilters(query)]),
      sort: [{ _score: { order: 'desc' } }, { depth: 'asc' }, { path: 'asc' }],
      stored_fields: '_none_',
      docvalue_fields: FILE_FIELDS,
      aggs: { counts: { filters: { filters: Object.fromEntries([...repository.byCount].map(([count, shas]) => [String(count), { terms: { blobSha: shas } }])) } } },
    });
  }
  if (searches.length === 0) return { hits: [], total: 0 };
  const response = await ctx.client.msearch(
    { searches, filter_path: ['responses.hits.hits.fields', 'responses.aggregations.counts.buckets', 'responses.error', 'responses.status'] },
    readOptions(ctx),
  );
  const hits: SymbolHit[] = [];
  let total = 0;
  response.responses.forEach((answer, i) => {
    const index = asked[i] as number;
    if ('error' in answer) throw new Error(`ranked symbol search of snapshot ${index} failed: ${JSON.stringify(answer.error)}`);
    const buckets = (answer.aggregations?.counts as { buckets?: Record<string, { doc_count: number }> } | undefined)?.buckets ?? {};
    for (const [count, bucket] of Object.entries(buckets)) total += Number(count) * bucket.doc_count;
    const files = ((answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []).map((hit) => fileOf(hit, index));
    const repositoryId = (snapshots[index] as Snapshot).repositoryId;
    // Path order within the snapshot, as findSymbols answers: the caller's ranking is stable over it.
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const file of files) for (const definition of definitions.get(blobId(repositoryId, file.blobSha))?.definitions ?? []) hits.push({ ...file, definition });
  });
  return { hits, total };
}
