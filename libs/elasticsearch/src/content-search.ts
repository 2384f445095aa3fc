import type { estypes } from '@elastic/elasticsearch';
import { type FileFlags } from '@gitdex/contracts';
import { compareCodePoints, queryTermCodes, termWordOfCode } from '@gitdex/terms';
import type { ContentCandidate, ContentPlan, ContentScope, FileContent, Snapshot, UnsearchableCount, UnsearchableScope } from '@gitdex/ports';
import { MAX_PAGE, readOptions, type StoreContext } from './context';
import { afterPathValues } from './file-reads';
import { visibleFilter } from './queries';
import { HAS_CONTENT_WORD, WORD_FORM } from './content-terms';
import { blobId, joinBlobs, type FileEntry } from './blobs';
import { value, valueOfEvery } from './doc-values';

type Query = estypes.QueryDslQueryContainer;

// Contents are read as whole _source documents (entries, then their blobs by id): asking for
// some fields of a _source makes Elasticsearch parse and rebuild every document (2–4× the time of
// the whole source for files of a few KB, measured).

/** Paths per terms query in readContents. */
const CONTENT_CHUNK = 200;
/** A candidate's doc values beside its path and flags (the path is the hit's first sort value). */
const CANDIDATE_FIELDS = ['blobSha', 'language', 'size'];
const FLAG_FIELDS: Record<keyof FileFlags, string> = { binary: 'flags.binary', vendored: 'flags.vendored', generated: 'flags.generated', tooLarge: 'flags.tooLarge' };
/**
 * Only the hits' doc values and sort values: the rest of a hit (index, id, score) was a quarter
 * of a page's answer, which Elasticsearch writes and the client parses (docs/search.md).
 */
const HIT_VALUES_ONLY = ['hits.hits.fields', 'hits.hits.sort'];
const PATH_ORDER: estypes.Sort = [{ path: 'asc' }, { fromGeneration: 'asc' }];

/** The plan as a filter; null means "no constraint" (every file with content). */
export function planQuery(plan: ContentPlan): Query | null {
  switch (plan.op) {
    case 'all':
      return null;
    case 'substring': {
      // Grams that share a bucket share a word (TermWordForm): each word is asked once.
      const words = [...new Set(queryTermCodes(plan.cased ?? plan.text).map((code) => termWordOfCode(code, WORD_FORM)))];
      if (words.length === 0) return null;
      return { bool: { filter: words.map((word) => ({ term: { contentTrigrams: word } })) } };
    }
    case 'and': {
      const parts = plan.of.map(planQuery).filter((q): q is Query => q !== null);
      return parts.length === 0 ? null : { bool: { filter: parts } };
    }
    case 'or': {
      const parts = plan.of.map(planQuery);
      if (parts.length === 0 || parts.some((q) => q === null)) return null;
      return { bool: { should: parts as Query[], minimum_should_match: 1 } };
    }
  }
}

function scopeFilters(scope: Pick<ContentScope, 'language' | 'includeGenerated'>): Query[] {
  return [
    ...(scope.language !== undefined ? [{ term: { language: scope.language } }] : []),
    ...(scope.includeGenerated ? [] : [{ term: { 'flags.vendored': false } }, { term: { 'flags.generated': false } }]),
  ];
}

/** Flags a page's filter decides for every hit: those are not fetched (each doc-value field costs every hit of the page). */
type KnownFlags = Partial<FileFlags>;

/** Without generated files (scopeFilters), no hit is vendored or generated. */
const knownFlagsOfScope = (scope: Pick<ContentScope, 'includeGenerated'>): KnownFlags => (scope.includeGenerated ? {} : { vendored: false, generated: false });
/** And a file with content is neither binary nor too large: the indexer stores content for neither. */
const knownFlagsOfContent = (scope: Pick<ContentScope, 'includeGenerated'>): KnownFlags => ({ binary: false, tooLarge: false, ...knownFlagsOfScope(scope) });

function candidateOf(hit: estypes.SearchHit<unknown>, known: KnownFlags): ContentCandidate {
  const flag = (name: keyof FileFlags) => known[name] ?? value<boolean>(hit, FLAG_FIELDS[name]) === true;
  const flags: FileFlags = { binary: flag('binary'), vendored: flag('vendored'), generated: flag('generated'), tooLarge: flag('tooLarge') };
  return { path: hit.sort?.[0] as string, blobSha: valueOfEvery<string>(hit, 'blobSha'), language: value<string>(hit, 'language') ?? null, flags, size: Number(valueOfEvery<number>(hit, 'size')) };
}

/** A page's hits, and whether each matched the query named INLINE_MATCH (when the page names it). */
async function candidateHits(ctx: StoreContext, filter: Query[], scope: ContentScope, known: KnownFlags, should: Query[] = []): Promise<estypes.SearchHit<unknown>[]> {
  if (scope.limit <= 0) return [];
  const flagFields = (Object.keys(FLAG_FIELDS) as (keyof FileFlags)[]).filter((name) => known[name] === undefined).map((name) => FLAG_FIELDS[name]);
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: Math.min(scope.limit, MAX_PAGE),
      track_total_hits: false,
      query: { bool: { filter, ...(should.length > 0 ? { should } : {}) } },
      sort: PATH_ORDER,
      ...(scope.afterPath !== null ? { search_after: afterPathValues(scope.afterPath) } : {}),
      // No stored field is read at all: decompressing their blocks would dominate.
      stored_fields: '_none_',
      docvalue_fields: [...CANDIDATE_FIELDS, ...flagFields],
      filter_path: should.length > 0 ? [...HIT_VALUES_ONLY, 'hits.hits.matched_queries'] : HIT_VALUES_ONLY,
    },
    readOptions(ctx),
  );
  // filter_path leaves out `hits` altogether when there is none.
  return (response.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? [];
}

async function candidatePage(ctx: StoreContext, filter: Query[], scope: ContentScope, known: KnownFlags): Promise<ContentCandidate[]> {
  return (await candidateHits(ctx, filter, scope, known)).map((hit) => candidateOf(hit, known));
}

/**
 * By default, at most this many matching blobs are joined to the entries by their shas (one terms query);
 * a plan that selects more of the repository's blobs walks the visible entries instead. Both
 * ways cost about one request per this many candidates (docs/design/blob-storage.md).
 */
export const SHA_JOIN_LIMIT = 4096;
/** Entries per page of the walk (their blobs are checked with one request a page). */
const WALK_PAGE = 2000;
/** The named clause that marks an entry of the previous release whose inline terms satisfy the plan. */
const INLINE_MATCH = 'inline';

/** The shas of the repository's blobs the plan selects, or null when there are more than `limit`. */
async function blobShasMatching(ctx: StoreContext, repositoryId: number, planned: Query, ids: string[] | null, limit: number): Promise<string[] | null> {
  const response = await ctx.client.search(
    {
      index: ctx.blobs,
      size: limit + 1,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { repositoryId } }, ...(ids !== null ? [{ ids: { values: ids } }] : []), planned] } },
      stored_fields: '_none_',
      docvalue_fields: ['blobSha'],
      filter_path: ['hits.hits.fields'],
    },
    readOptions(ctx),
  );
  const hits = (response.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? [];
  if (hits.length > limit) return null;
  return hits.map((hit) => valueOfEvery<string>(hit, 'blobSha'));
}

/**
 * Candidates: visible files with content whose terms satisfy the plan. The terms are the
 * blob's (or, on an entry the previous release wrote, the entry's own, until the blob migration
 * has moved it). A selective plan finds its blobs first and then the visible entries naming
 * them; an unselective one walks the visible entries in path order and keeps those whose blob
 * the plan selects.
 */
export async function searchCandidates(ctx: StoreContext, snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): Promise<ContentCandidate[]> {
  if (scope.limit <= 0) return [];
  // Files without content (binary, too large, symlinks…) have no such terms: kept out of "all" plans too.
  const planned = planQuery(plan) ?? { term: { contentTrigrams: HAS_CONTENT_WORD } };
  const base: Query[] = [...visibleFilter(snapshot), ...scopeFilters(scope)];
  const known = knownFlagsOfContent(scope);
  const shas = await blobShasMatching(ctx, snapshot.repositoryId, planned, null, ctx.shaJoinLimit);
  if (shas !== null) {
    const match: Query = shas.length > 0 ? { bool: { should: [{ terms: { blobSha: shas } }, planned], minimum_should_match: 1 } } : planned;
    return candidatePage(ctx, [...base, match], scope, known);
  }
  return walkCandidates(ctx, snapshot.repositoryId, base, planned, scope, known);
}

async function walkCandidates(ctx: StoreContext, repositoryId: number, base: Query[], planned: Query, scope: ContentScope, known: KnownFlags): Promise<ContentCandidate[]> {
  // The indexer stores content for no binary or too large file: those entries need no blob check.
  const filter: Query[] = [...base, { term: { kind: 'file' } }, { term: { 'flags.binary': false } }, { term: { 'flags.tooLarge': false } }];
  const found: ContentCandidate[] = [];
  let afterPath = scope.afterPath;
  while (found.length < scope.limit) {
    ctx.signal?.throwIfAborted();
    const limit = Math.min(MAX_PAGE, Math.max(WALK_PAGE, scope.limit - found.length));
    const hits = await candidateHits(ctx, filter, { ...scope, afterPath, limit }, known, [{ bool: { filter: [planned], _name: INLINE_MATCH } }]);
    if (hits.length === 0) break;
    const page = hits.map((hit) => ({ candidate: candidateOf(hit, known), inline: hit.matched_queries !== undefined && Object.values(hit.matched_queries).length > 0 }));
    const ids = [...new Set(page.filter((entry) => !entry.inline).map((entry) => blobId(repositoryId, entry.candidate.blobSha)))];
    const matching = new Set(ids.length > 0 ? await blobShasMatching(ctx, repositoryId, planned, ids, ids.length) : []);
    for (const entry of page) {
      if (found.length >= scope.limit) break;
      if (entry.inline || matching.has(entry.candidate.blobSha)) found.push(entry.candidate);
    }
    if (hits.length < limit) break;
    afterPath = (page[page.length - 1] as (typeof page)[number]).candidate.path;
  }
  return found;
}

const UNSEARCHABLE: Query = { bool: { should: [{ term: { 'flags.binary': true } }, { term: { 'flags.tooLarge': true } }], minimum_should_match: 1 } };

export function unsearchableFiles(ctx: StoreContext, snapshot: Snapshot, scope: ContentScope): Promise<ContentCandidate[]> {
  return candidatePage(ctx, [...visibleFilter(snapshot), ...scopeFilters(scope), { term: { kind: 'file' } }, UNSEARCHABLE], scope, knownFlagsOfScope(scope));
}

const IS_BINARY: Query = { term: { 'flags.binary': true } };

/** One request: the two counts as filter aggregations over the visible files of the scope. */
export async function countUnsearchable(ctx: StoreContext, snapshot: Snapshot, scope: UnsearchableScope): Promise<UnsearchableCount> {
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: 0,
      track_total_hits: false,
      // Only the unsearchable files are matched, so the aggregation visits those, not every file of the repository.
      query: { bool: { filter: [...visibleFilter(snapshot), ...scopeFilters(scope), { term: { kind: 'file' } }, UNSEARCHABLE] } },
      aggs: {
        binary: { filter: IS_BINARY },
        tooLarge: { filter: { bool: { filter: [{ term: { 'flags.tooLarge': true } }], must_not: [IS_BINARY] } } },
      },
    },
    readOptions(ctx),
  );
  const count = (name: string) => (response.aggregations?.[name] as estypes.AggregationsSingleBucketAggregateBase | undefined)?.doc_count ?? 0;
  return { binary: count('binary'), tooLarge: count('tooLarge') };
}

export async function readContents(ctx: StoreContext, snapshot: Snapshot, paths: string[]): Promise<FileContent[]> {
  const unique = [...new Set(paths)].sort(compareCodePoints);
  const result: FileContent[] = [];
  for (let i = 0; i < unique.length; i += CONTENT_CHUNK) {
    ctx.signal?.throwIfAborted();
    const chunk = unique.slice(i, i + CONTENT_CHUNK);
    const response = await ctx.client.search<FileEntry>(
      {
        index: ctx.files,
        size: chunk.length,
        track_total_hits: false,
        query: { bool: { filter: [...visibleFilter(snapshot), { terms: { path: chunk } }] } },
        sort: PATH_ORDER,
        _source: true,
      },
      readOptions(ctx),
    );
    // One mget of the page's blobs; order (path) is kept.
    const files = await joinBlobs(
      ctx,
      response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : [])),
    );
    for (const file of files) result.push({ path: file.path, content: file.content ?? null });
  }
  return result;
}
