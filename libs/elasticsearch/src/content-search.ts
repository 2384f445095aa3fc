import type { estypes } from '@elastic/elasticsearch';
import { type FileDocument, type FileFlags } from '@gitdex/contracts';
import { compareCodePoints, contentTermWords, queryTermCodes, termWordOfCode, type TermWordForm } from '@gitdex/terms';
import type { ContentCandidate, ContentPlan, ContentScope, FileContent, Snapshot, UnsearchableCount, UnsearchableScope } from '@gitdex/ports';
import { MAX_PAGE, readOptions, type StoreContext } from './context';
import { afterPathValues } from './file-reads';
import { visibleFilter } from './queries';

type Query = estypes.QueryDslQueryContainer;

// Contents are read as whole _source documents: asking for some fields of it makes
// Elasticsearch parse and rebuild every document (2–4× the time of the whole source for
// files of a few KB, measured); the rest of a file document is small beside its content.

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

/**
 * A word every document with content holds (no term's word has 11 units, see TermWordForm in
 * libs/terms): "every file with content" is a term query, also for files too short
 * to have a trigram.
 */
export const HAS_CONTENT_WORD = 'has-content';
/** Printable terms as themselves and grams as their buckets: fewer bytes for the engine than digits (TermWordForm). */
const WORD_FORM: TermWordForm = 'text';

/**
 * The document as indexed: the FileDocument plus the words of its content terms in their
 * `text` form (a printable term as itself: the analyzer splits only at white space), one text
 * the field's whitespace analyzer splits (not kept in _source). One string, not an array
 * of terms: Elasticsearch parses and inverts it as one field value, which took a bulk of
 * 8,000 files 22 % less time than a keyword per term (docs/search.md).
 */
export function withContentTrigrams(doc: FileDocument): FileDocument & { contentTrigrams?: string } {
  return doc.content !== null ? { ...doc, contentTrigrams: contentTermWordsOf(doc.content) } : doc;
}

function contentTermWordsOf(content: string): string {
  const words = contentTermWords(content, WORD_FORM);
  return words.length > 0 ? `${HAS_CONTENT_WORD} ${words}` : HAS_CONTENT_WORD;
}

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

function value<T>(hit: estypes.SearchHit<unknown>, field: string): T {
  return (hit.fields?.[field] as T[] | undefined)?.[0] as T;
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
  return { path: hit.sort?.[0] as string, blobSha: value(hit, 'blobSha'), language: value<string | null>(hit, 'language') ?? null, flags, size: Number(value(hit, 'size')) };
}

async function candidatePage(ctx: StoreContext, filter: Query[], scope: ContentScope, known: KnownFlags): Promise<ContentCandidate[]> {
  if (scope.limit <= 0) return [];
  const flagFields = (Object.keys(FLAG_FIELDS) as (keyof FileFlags)[]).filter((name) => known[name] === undefined).map((name) => FLAG_FIELDS[name]);
  const response = await ctx.client.search(
    {
      index: ctx.files,
      size: Math.min(scope.limit, MAX_PAGE),
      track_total_hits: false,
      query: { bool: { filter } },
      sort: PATH_ORDER,
      ...(scope.afterPath !== null ? { search_after: afterPathValues(scope.afterPath) } : {}),
      // No stored field is read at all: their blocks hold the content, whose decompression would dominate.
      stored_fields: '_none_',
      docvalue_fields: [...CANDIDATE_FIELDS, ...flagFields],
      filter_path: HIT_VALUES_ONLY,
    },
    readOptions(ctx),
  );
  // filter_path leaves out `hits` altogether when there is none.
  const hits = (response.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? [];
  return hits.map((hit) => candidateOf(hit, known));
}

/** Candidates: visible files with content whose trigrams satisfy the plan. */
export function searchCandidates(ctx: StoreContext, snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): Promise<ContentCandidate[]> {
  const planned = planQuery(plan);
  // Files without content (binary, too large, symlinks…) have no such terms: kept out of "all" plans too.
  const filter: Query[] = [...visibleFilter(snapshot), ...scopeFilters(scope), planned ?? { term: { contentTrigrams: HAS_CONTENT_WORD } }];
  return candidatePage(ctx, filter, scope, knownFlagsOfContent(scope));
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
    const response = await ctx.client.search<{ path: string; content: string | null }>(
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
    for (const hit of response.hits.hits) if (hit._source) result.push({ path: hit._source.path, content: hit._source.content ?? null });
  }
  return result;
}
