import type { FileFlags, SymbolDefinition } from '@gitdex/contracts';
import { foldersOf, nestingOf, tierOf } from '@gitdex/terms';

/** What ranking needs of one definition found. */
export interface RankedHit {
  repository: string;
  path: string;
  flags: FileFlags;
  definition: SymbolDefinition;
}

/**
 * Best first: the exact name in its exact case, then the project's source before tests before
 * vendored or generated copies, outer definitions before nested ones, fewer folders, then a
 * stable order (repository, path, line) so pages never shuffle.
 */
export function rankHits<T extends RankedHit>(hits: T[], wanted: string): T[] {
  const keyed = hits.map((hit) => ({
    hit,
    exact: hit.definition.name === wanted ? 0 : 1,
    tier: tierOf(hit.path, hit.flags),
    nesting: nestingOf(hit.definition.container),
    folders: foldersOf(hit.path),
  }));
  keyed.sort(
    (a, b) =>
      a.exact - b.exact ||
      a.tier - b.tier ||
      a.nesting - b.nesting ||
      a.folders - b.folders ||
      compare(a.hit.repository, b.hit.repository) ||
      compare(a.hit.path, b.hit.path) ||
      a.hit.definition.line - b.hit.definition.line,
  );
  return keyed.map((k) => k.hit);
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
