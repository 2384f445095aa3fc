import type { estypes } from '@elastic/elasticsearch';
import { CANDIDATE_WEIGHTS, type Snapshot, type SuggestQuery } from '@gitdex/ports';

type Query = estypes.QueryDslQueryContainer;

export function scopeFilter(repositoryId: number, ref: string): Query[] {
  return [{ term: { repositoryId } }, { term: { ref } }];
}

/** Visible at G: fromGeneration <= G and (no retiredAtGeneration or retiredAtGeneration > G). */
function visibleAt(repositoryId: number, ref: string, generation: number): Query[] {
  return [
    ...scopeFilter(repositoryId, ref),
    { range: { fromGeneration: { lte: generation } } },
    {
      bool: {
        should: [{ bool: { must_not: { exists: { field: 'retiredAtGeneration' } } } }, { range: { retiredAtGeneration: { gt: generation } } }],
        minimum_should_match: 1,
      },
    },
  ];
}

/**
 * What a snapshot sees: its ref's versions at its generation and, for a ref layered on another
 * (Snapshot.underlay), that ref's versions at the underlay's generation whose path it does not
 * shadow. The two sets never share a path, so path order and search_after work across both.
 */
export function visibleFilter(snapshot: Snapshot): Query[] {
  const own = visibleAt(snapshot.repositoryId, snapshot.ref, snapshot.generation);
  const under = snapshot.underlay;
  if (!under) return own;
  const unshadowed: Query = {
    bool: { filter: visibleAt(snapshot.repositoryId, under.ref, under.generation), ...(under.shadowed.length > 0 ? { must_not: [{ terms: { path: under.shadowed } }] } : {}) },
  };
  return [{ bool: { should: [{ bool: { filter: own } }, unshadowed], minimum_should_match: 1 } }];
}

export function visibleQuery(snapshot: Snapshot, ...more: Query[]): Query {
  return { bool: { filter: [...visibleFilter(snapshot), ...more] } };
}

/** Files anywhere under a folder ('' = every file): every file lists its ancestors. */
export function underFolder(folder: string): Query[] {
  return folder === '' ? [] : [{ term: { ancestors: folder } }];
}

export function depthOf(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}

/** Lucene regular expression syntax: escape every operator so a folder name matches itself. */
export function escapeRegex(text: string): string {
  return text.replace(/[.?+*|{}[\]()"\\#@&<>~^$]/g, '\\$&');
}

/** Matches folders 1..levels segments below `folder` (levels >= 1). */
export function foldersBelowPattern(folder: string, levels: number): string {
  const prefix = folder === '' ? '' : `${escapeRegex(folder)}/`;
  return levels <= 1 ? `${prefix}[^/]+` : `${prefix}[^/]+(/[^/]+){0,${levels - 1}}`;
}

/**
 * Exact candidate score as a sum of constant scores: 1 per distinct query trigram present,
 * 100 for an equal name, 50 for a path prefix, 10 per distinct query token present.
 * The filter (visibility) scores nothing; at least one clause must match.
 */
export function suggestClauses(query: SuggestQuery): Query[] {
  const clause = (filter: Query, boost: number): Query => ({ constant_score: { filter, boost } });
  return [
    ...[...new Set(query.trigrams)].map((trigram) => clause({ term: { trigrams: trigram } }, CANDIDATE_WEIGHTS.trigram)),
    ...(query.nameLower !== '' ? [clause({ term: { nameLower: query.nameLower } }, CANDIDATE_WEIGHTS.sameName)] : []),
    ...(query.pathLower !== '' ? [clause({ prefix: { pathLower: query.pathLower } }, CANDIDATE_WEIGHTS.pathPrefix)] : []),
    ...[...new Set(query.tokens)].map((token) => clause({ term: { tokens: token } }, CANDIDATE_WEIGHTS.token)),
  ];
}
