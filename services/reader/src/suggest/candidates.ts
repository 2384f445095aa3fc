import { nameOf, pathTokens, trigramsOf } from '@gitdex/terms';
import type { Snapshot } from '@gitdex/ports';
import type { ReaderDeps } from '../deps';
import { rankPaths, type RankedPath } from './rank';

/**
 * How many candidates the index is asked for before the ranking picks the best. The right
 * path is near the top of the engines' order (an equal name or a path prefix outweighs
 * any number of shared trigrams): top-1 was the same with 100 as with 400 on every
 * benchmark tree up to 20,000 files, and only 50 lost some. Ranking costs per candidate.
 */
export const CANDIDATES = 100;

/** Ranked file paths of a snapshot for a query: the index finds candidates, rank.ts orders them. */
export async function suggestFiles(deps: ReaderDeps, snapshot: Snapshot, query: string, limit: number): Promise<RankedPath[]> {
  const candidates = await deps.index.suggestCandidates(snapshot, suggestQuery(query));
  return rankPaths(
    query,
    candidates.map((c) => c.path),
    limit,
  );
}

export function suggestQuery(query: string) {
  const name = nameOf(query);
  return {
    pathLower: query.toLowerCase(),
    nameLower: name.toLowerCase(),
    tokens: pathTokens(query),
    trigrams: trigramsOf(name === '' ? query : name),
    limit: CANDIDATES,
  };
}

/**
 * Ranked folders for a folder that does not exist: the folders above the files that
 * match its name, and the subfolders of its parent (where a misspelt last segment lives).
 */
export async function suggestFolders(deps: ReaderDeps, snapshot: Snapshot, folder: string, limit: number): Promise<RankedPath[]> {
  const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  const [candidates, siblings] = await Promise.all([deps.index.suggestCandidates(snapshot, suggestQuery(folder)), deps.index.listFolders({ ...snapshot, folder: parent, depth: 1 })]);
  const folders = new Set<string>(siblings.map((s) => s.path));
  for (const candidate of candidates) {
    const parts = candidate.path.split('/');
    for (let i = 1; i < parts.length; i += 1) folders.add(parts.slice(0, i).join('/'));
  }
  return rankPaths(folder, folders, limit);
}
