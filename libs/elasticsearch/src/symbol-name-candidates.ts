import type { estypes } from '@elastic/elasticsearch';
import { maxNearEdits, NAMES_PER_SOURCE, nearNames, nearPieces } from '@gitdex/terms';
import { readOptions, type StoreContext } from './context';
import { gramsOf, type SymbolNameList } from './symbol-name-list';
import { wildcardValue } from './symbol-names-near';

type Query = estypes.QueryDslQueryContainer;

/** The lengths a candidate of `length` characters may have, `edits` either way. */
const lengthWithin = (length: number, edits: number): Query => ({ range: { length: { gte: length - edits, lte: length + edits } } });

/**
 * Nearest length first, as SQLite's list orders each source: the score halves with each character
 * of difference (an `exp` decay; the engine the tests run on has no scripting module).
 */
const nearestLengthFirst = (query: Query, length: number): Query => ({
  function_score: { query, functions: [{ exp: { length: { origin: length, scale: 1, decay: 0.5 } } }], boost_mode: 'replace' },
});

const BY_NAME: estypes.SortCombinations[] = [{ lower: 'asc' }, { name: 'asc' }];

/** The searches of listedCandidates, one a source (the same sources as SQLite's list), header and body. */
export function candidateSearches(list: SymbolNameList, repositoryIds: number[], folded: string): estypes.MsearchRequestItem[] {
  const chars = Array.from(folded);
  const length = chars.length;
  const edits = maxNearEdits(length);
  const short = length < 3;
  const sources: { query: Query; sort: estypes.SortCombinations[] }[] = [{ query: { term: { lower: folded } }, sort: [{ name: 'asc' }] }];
  if (!short)
    for (const piece of nearPieces(folded))
      sources.push({
        query: nearestLengthFirst({ bool: { must: [{ match_phrase: { grams: gramsOf(piece) } }], filter: [lengthWithin(length, edits)] } }, length),
        sort: [{ _score: { order: 'desc' } }, ...BY_NAME],
      });
  // Under three characters there is no trigram: names containing it by a wildcard over the list's own (small) terms.
  sources.push(
    short
      ? { query: { wildcard: { lower: { value: `*${wildcardValue(folded).replace(/\*/g, '\\*')}*` } } }, sort: BY_NAME }
      : { query: { bool: { must: [{ match_phrase: { grams: gramsOf(folded) } }], filter: [{ range: { length: { gte: length } } }] } }, sort: [{ length: 'asc' }, ...BY_NAME] },
  );
  sources.push({ query: { bool: { filter: [{ prefix: { lower: chars.slice(0, 3).join('') } }, lengthWithin(length, edits)] } }, sort: BY_NAME });
  return sources.flatMap(({ query, sort }) => [
    { index: list.index, ignore_unavailable: true },
    {
      size: NAMES_PER_SOURCE,
      track_total_hits: false,
      query: { bool: { filter: [{ terms: { repositoryId: repositoryIds } }], must: [query] } },
      sort,
      // One hit a name, however many of the repositories list it.
      collapse: { field: 'name' },
      _source: false,
      docvalue_fields: ['name'],
    },
  ]);
}

/**
 * Listed names of the repositories near `asked` ignoring case, from the sources SQLite's list
 * reads (the same name in any case, names a few edits away by the pieces of nearPieces, names
 * containing it, names starting with its first three characters; NAMES_PER_SOURCE a source), in
 * one multi-search; ranked as the reader ranks them (nearNames), those it would drop left out.
 * Not yet checked for visibility.
 */
export async function listedCandidates(ctx: StoreContext, repositoryIds: number[], asked: string): Promise<string[]> {
  const folded = asked.toLowerCase();
  if (folded === '' || repositoryIds.length === 0) return [];
  const searches = candidateSearches(ctx.names, repositoryIds, folded);
  const response = await ctx.client.msearch({ searches, filter_path: ['responses.hits.hits.fields', 'responses.error', 'responses.status'] }, readOptions(ctx));
  const found = new Set<string>();
  for (const answer of response.responses) {
    if ('error' in answer) throw new Error(`symbol name list search failed: ${JSON.stringify(answer.error)}`);
    for (const hit of (answer.hits as estypes.SearchHitsMetadata<unknown> | undefined)?.hits ?? []) for (const name of (hit.fields?.name as string[] | undefined) ?? []) found.add(name);
  }
  return nearNames(asked, found);
}
