import type { estypes } from '@elastic/elasticsearch';
import { maxNearEdits, NAMES_PER_SOURCE, nearNames } from '@gitdex/terms';
import { readOptions, type StoreContext } from './context';
import { value } from './doc-values';
import { gramsOf, type SymbolNameList } from './symbol-name-list';
import { containsWildcard, FUZZY_EDITS } from './symbol-names-near';

type Query = estypes.QueryDslQueryContainer;

/** The lengths a candidate of `length` characters may have, `edits` either way. */
const lengthWithin = (length: number, edits: number): Query => ({ range: { length: { gte: length - edits, lte: length + edits } } });

const BY_NAME: estypes.SortCombinations[] = [{ lower: 'asc' }, { name: 'asc' }];

/** Names up to this long with a letter doubled or dropped may share no trigram with the asked one: they are also looked up by edits. */
const SHORT_FUZZY = 5;

/**
 * The searches of listedCandidates, one a source, header and body. The sources are SQLite's
 * (symbol-name-list.ts there), but for names a few edits away: SQLite looks up each piece of
 * nearPieces and keeps the nearest lengths, since ranking every name that shares a trigram cost
 * it 43 ms; Lucene ranks them by shared trigrams (BM25 over `grams`, the rarer and the more
 * trigrams shared, the shorter the name, the better) and keeps the best NAMES_PER_SOURCE with
 * its top-k search, a name the pieces' nearest lengths would have left behind included
 * (`loadItterator` finds `loadIterator` among thousands of names holding `erator`). A name of at
 * most SHORT_FUZZY characters is also looked up by edits (`fuzzy`, over the list's own terms).
 */
export function candidateSearches(list: SymbolNameList, repositoryIds: number[], folded: string): estypes.MsearchRequestItem[] {
  const chars = Array.from(folded);
  const length = chars.length;
  const edits = maxNearEdits(length);
  const short = length < 3;
  const sources: { query: Query; sort: estypes.SortCombinations[] }[] = [{ query: { term: { lower: folded } }, sort: [{ name: 'asc' }] }];
  if (!short)
    sources.push({
      query: { bool: { must: [{ match: { grams: gramsOf(folded) } }], filter: [lengthWithin(length, edits)] } },
      // By score alone: a tie-break after it keeps Lucene from skipping what cannot enter the top (2.7 against 3.3 ms p50).
      sort: [{ _score: { order: 'desc' } }],
    });
  if (length <= SHORT_FUZZY) sources.push({ query: { fuzzy: { lower: { value: folded, fuzziness: Math.min(FUZZY_EDITS, edits), max_expansions: NAMES_PER_SOURCE } } }, sort: BY_NAME });
  // Under three characters there is no trigram: names containing it by a wildcard over the list's own (small) terms.
  sources.push(
    short
      ? { query: { wildcard: { lower: { value: containsWildcard(folded) } } }, sort: BY_NAME }
      : { query: { bool: { must: [{ match_phrase: { grams: gramsOf(folded) } }], filter: [{ range: { length: { gte: length } } }] } }, sort: [{ length: 'asc' }, ...BY_NAME] },
  );
  // In index order, which stops at the first NAMES_PER_SOURCE: by name was no nearer, and sorted every name sharing the prefix.
  sources.push({ query: { bool: { filter: [{ prefix: { lower: chars.slice(0, 3).join('') } }, lengthWithin(length, edits)] } }, sort: ['_doc'] });
  return sources.flatMap(({ query, sort }) => [
    { index: list.index, ignore_unavailable: true },
    {
      size: NAMES_PER_SOURCE,
      track_total_hits: false,
      query: { bool: { filter: [{ terms: { repositoryId: repositoryIds } }], must: [query] } },
      sort,
      // One hit a name, however many of the repositories list it (a repository lists a name once).
      ...(repositoryIds.length > 1 ? { collapse: { field: 'name' } } : {}),
      _source: false,
      docvalue_fields: ['name', 'repositoryId', 'blobSha'],
    },
  ]);
}

/** A listed name, with the blobs named by the list documents the searches returned (none from a list written before documents named one). */
export interface ListedCandidate {
  name: string;
  blobs: ListedBlob[];
}

interface ListedBlob {
  repositoryId: number;
  blobSha: string;
}

/**
 * Listed names of the repositories near `asked` ignoring case (the same name in any case, names
 * sharing its trigrams, names containing it, names starting with its first three characters;
 * NAMES_PER_SOURCE a source), in one multi-search; ranked as the reader ranks them (nearNames), those it would drop left out.
 * Not yet checked for visibility.
 */
export async function listedCandidates(ctx: StoreContext, repositoryIds: number[], asked: string): Promise<ListedCandidate[]> {
  const folded = asked.toLowerCase();
  if (folded === '' || repositoryIds.length === 0) return [];
  const searches = candidateSearches(ctx.names, repositoryIds, folded);
  const response = await ctx.client.msearch({ searches, filter_path: ['responses.hits.hits.fields', 'responses.error', 'responses.status'] }, readOptions(ctx));
  const found = new Map<string, ListedBlob[]>();
  for (const answer of response.responses) {
    if ('error' in answer) throw new Error(`symbol name list search failed: ${JSON.stringify(answer.error)}`);
    for (const hit of (answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []) {
      const name = value<string>(hit, 'name');
      if (name === undefined) continue;
      let blobs = found.get(name);
      if (!blobs) found.set(name, (blobs = []));
      const repositoryId = value<number>(hit, 'repositoryId');
      const blobSha = value<string>(hit, 'blobSha');
      // A name two sources returned is here twice; blobs are grouped once, by the caller.
      if (repositoryId !== undefined && blobSha !== undefined) blobs.push({ repositoryId, blobSha });
    }
  }
  return nearNames(asked, found.keys()).map((name) => ({ name, blobs: found.get(name) ?? [] }));
}
