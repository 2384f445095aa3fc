import type { estypes } from '@elastic/elasticsearch';
import { editDistances } from '@gitdex/terms';

type Query = estypes.QueryDslQueryContainer;

/**
 * The two steps of "did you mean" on the blobs index (docs/design/symbols-storage.md#did-you-mean),
 * kept free of the client so the decision between them can be read and tested alone.
 */

/** The most edits `fuzzy` allows: Lucene's Levenshtein automata stop at two. */
export const FUZZY_EDITS = 2;

/** Elasticsearch wildcard syntax with only `*` special (find_symbol's patterns). */
export function wildcardValue(pattern: string): string {
  return pattern.replace(/[?\\]/g, '\\$&');
}

/**
 * The near step: the same name in another case, then names at most FUZZY_EDITS away (with a
 * swap of neighbours as one edit, as nearNames counts it). Both walk only the part of the term
 * dictionary they can match, whatever the asked name's length.
 */
export function nearClauses(lower: string): Query[] {
  return [{ term: { symbolNamesLower: { value: lower, boost: 4 } } }, { fuzzy: { symbolNamesLower: { value: lower, fuzziness: FUZZY_EDITS, max_expansions: 50, boost: 2 } } }];
}

/**
 * The containment step: names containing the asked one. A leading `*` visits every term of the
 * field, as costly as the near step, so it runs only when the near step cannot settle the names
 * shown (nearSettles). Started beside the near step and aborted when not needed, it made a typo
 * slower on two busy cores (the journal note of the Elasticsearch did you mean).
 */
export function containsClause(lower: string): Query {
  return { wildcard: { symbolNamesLower: { value: containsWildcard(lower), boost: 1 } } };
}

/** A wildcard value matching what contains `text`, every character of it literal. */
export function containsWildcard(text: string): string {
  return `*${wildcardValue(text).replace(/\*/g, '\\*')}*`;
}

/**
 * Whether the first `limit` names nearNames ranked from the near step are the answer with the
 * containment step too. nearNames ranks a name by its edits from the asked one, and a name
 * containing the asked one is exactly its extra length away; one at most FUZZY_EDITS longer is
 * already a near-step candidate. So when the `limit`-th ranked name is at most FUZZY_EDITS away,
 * every name only containment finds (at least FUZZY_EDITS + 1 away) ranks after it.
 */
export function nearSettles(asked: string, ranked: readonly string[], limit: number): boolean {
  const last = ranked[limit - 1];
  return last !== undefined && editDistances(asked.toLowerCase(), last.toLowerCase()).full <= FUZZY_EDITS;
}
