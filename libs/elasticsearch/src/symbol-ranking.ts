import type { estypes } from '@elastic/elasticsearch';
import type { SymbolKind } from '@gitdex/contracts';
import type { ExactSymbolQuery, Snapshot, SymbolFile, SymbolHit, SymbolPage, SymbolScope } from '@gitdex/ports';
import { nestingOf, tierOf } from '@gitdex/terms';
import { blobId } from './blobs';
import { MAX_PAGE, readOptions, type StoreContext } from './context';
import { visibleFilter } from './queries';
import { type BlobDefinitions, FILE_FIELDS, fileOf, matchingDefinitions, scopeFilters } from './symbol-reads';

type Query = estypes.QueryDslQueryContainer;

/**
 * find_symbol's first page on Elasticsearch (docs/design/symbols-storage.md, "Ranked reads").
 * The name documents give each blob's matching definitions, as for findSymbols. Then each
 * snapshot's visible entries holding those blobs are read in engine order: copies (vendored or
 * generated) last, then the blob's least nesting, then `depth` and `path`; the first search
 * also counts them all, by how many definitions their blob holds (a `filters` aggregation),
 * which gives the total without fetching them.
 *
 * Engine order is the file order of rankedSymbols (tier, nesting, folders, path) except that
 * it cannot tell tests from sources: a test is told by its path (tierOf), which a Lucene
 * `regexp` would answer by walking the whole term dictionary of paths on every search. So the
 * entries are read in growing batches (search_after) until tierOf, here, settles the first
 * `files`: once `files` sources are read, no entry further on can come before them; once a copy
 * is read, every source and test has been. A name defined mostly in tests reads more batches.
 */

/** Vendored or generated: the last tier, which the engine can tell by its flags. */
const COPY: Query = { bool: { should: [{ term: { 'flags.vendored': true } }, { term: { 'flags.generated': true } }], minimum_should_match: 1 } };
/** The first batch holds this many times the files asked, so a few tests among them rarely need a second. */
const FIRST_BATCH_FACTOR = 2;
/** Each further batch is this many times the one before. */
const BATCH_GROWTH = 4;

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
 * Scores in engine order: a nesting group adds from the number of groups (the least nesting)
 * down to 1 (the most), and not being a copy adds more than all of them together. Whole numbers
 * this small add up exactly in a float score.
 */
function orderQuery(byNesting: Groups, filter: Query[]): Query {
  const nestings = [...byNesting.keys()].sort((a, b) => a - b);
  return {
    bool: {
      filter,
      // The blobs, one clause per nesting: every entry matches exactly one.
      must: [{ bool: { should: nestings.map((nesting, i): Query => ({ constant_score: { filter: { terms: { blobSha: byNesting.get(nesting) as string[] } }, boost: nestings.length - i } })) } }],
      should: [{ constant_score: { filter: { bool: { must_not: [COPY] } }, boost: nestings.length + 1 } }],
    },
  };
}

/** One snapshot's entries read so far, in engine order. */
interface Walk {
  index: number;
  query: Query;
  counts?: Record<string, { doc_count: number }>;
  files: SymbolFile[];
  after?: estypes.SortResults;
  size: number;
  done: boolean;
}

/** Whether the entries read so far hold the first `files` in file order (see the top of this file). */
function settled(read: SymbolFile[], files: number): boolean {
  let sources = 0;
  for (const file of read) if (tierOf(file.path, file.flags) === 0) sources += 1;
  const last = read[read.length - 1];
  return sources >= files || (last !== undefined && tierOf(last.path, last.flags) === 2 && read.length >= files);
}

/** The first `files` entries read, in file order: engine order is file order within each tier. */
function firstInFileOrder(read: SymbolFile[], files: number): SymbolFile[] {
  return read
    .map((file, at) => ({ file, at, tier: tierOf(file.path, file.flags) }))
    .sort((a, b) => a.tier - b.tier || a.at - b.at)
    .slice(0, files)
    .map((entry) => entry.file);
}

async function readBatches(ctx: StoreContext, walks: Walk[], counts: Map<number, RepositoryBlobs>): Promise<void> {
  const searches: estypes.MsearchRequestItem[] = [];
  for (const walk of walks) {
    searches.push({ index: ctx.files });
    searches.push({
      size: walk.size,
      track_total_hits: false,
      query: walk.query,
      sort: [{ _score: { order: 'desc' } }, { depth: 'asc' }, { path: 'asc' }],
      ...(walk.after ? { search_after: walk.after } : {}),
      stored_fields: '_none_',
      docvalue_fields: FILE_FIELDS,
      ...(walk.counts === undefined
        ? { aggs: { counts: { filters: { filters: Object.fromEntries([...(counts.get(walk.index)?.byCount ?? [])].map(([count, shas]) => [String(count), { terms: { blobSha: shas } }])) } } } }
        : {}),
    });
  }
  const response = await ctx.client.msearch(
    { searches, filter_path: ['responses.hits.hits.fields', 'responses.hits.hits.sort', 'responses.aggregations.counts.buckets', 'responses.error', 'responses.status'] },
    readOptions(ctx),
  );
  response.responses.forEach((answer, i) => {
    const walk = walks[i] as Walk;
    if ('error' in answer) throw new Error(`ranked symbol search of snapshot ${walk.index} failed: ${JSON.stringify(answer.error)}`);
    walk.counts ??= (answer.aggregations?.counts as { buckets?: Record<string, { doc_count: number }> } | undefined)?.buckets ?? {};
    const hits = (answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? [];
    walk.files.push(...hits.map((hit) => fileOf(hit, walk.index)));
    walk.after = hits[hits.length - 1]?.sort;
    walk.done = hits.length < walk.size;
    walk.size = Math.min(walk.size * BATCH_GROWTH, MAX_PAGE);
  });
}

export async function rankedSymbols(ctx: StoreContext, snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }): Promise<SymbolPage> {
  if (query.files > MAX_PAGE) throw new RangeError(`rankedSymbols reads at most ${MAX_PAGE} files a snapshot, not ${query.files}`);
  const files = Math.max(query.files, 0);
  const definitions = await matchingDefinitions(ctx, snapshots, query);
  const blobs = blobsByRepository(definitions);
  // Keyed by snapshot index: the aggregation of each snapshot's first search.
  const bySnapshot = new Map<number, RepositoryBlobs>();
  const walks: Walk[] = [];
  for (const [index, snapshot] of snapshots.entries()) {
    const repository = blobs.get(snapshot.repositoryId);
    if (!repository) continue;
    bySnapshot.set(index, repository);
    const filter = [...visibleFilter(snapshot), { term: { kind: 'file' } }, ...scopeFilters(query)];
    walks.push({ index, query: orderQuery(repository.byNesting, filter), files: [], size: Math.min(Math.max(files * FIRST_BATCH_FACTOR, 1), MAX_PAGE), done: false });
  }
  // The first round always runs: it counts, also when no file is asked for.
  for (let open = walks; open.length > 0; open = walks.filter((w) => !w.done && !settled(w.files, files))) await readBatches(ctx, open, bySnapshot);

  const hits: SymbolHit[] = [];
  let total = 0;
  for (const walk of walks) {
    for (const [count, bucket] of Object.entries(walk.counts ?? {})) total += Number(count) * bucket.doc_count;
    const repositoryId = (snapshots[walk.index] as Snapshot).repositoryId;
    // Path order within the snapshot, as findSymbols answers: the caller's ranking is stable over it.
    const first = firstInFileOrder(walk.files, files).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const file of first) for (const definition of definitions.get(blobId(repositoryId, file.blobSha))?.definitions ?? []) hits.push({ ...file, definition });
  }
  return { hits, total };
}
