import type { Snapshot } from '@gitdex/ports';
import type { Principal, ReaderDeps } from './deps';
import { shortRef, shortSha } from './freshness';
import { suggestFiles, suggestFolders } from './suggest/candidates';
import type { Target } from './target';
import { ToolError } from './tool-error';
import { snapshotOf } from './snapshot-of';

/** Suggestions weaker than this are noise in a "Did you mean". */
const MIN_SCORE = 0.45;
/** A suggestion this good means the caller only slipped; no need to look in other repositories. */
const CLOSE_MATCH = 0.9;
/** At most this many other repositories are searched for the path. */
const MAX_OTHER_REPOSITORIES = 500;

/**
 * The NOT_FOUND error for a file or folder, with what the caller most likely meant:
 * where the file moved to (its last content now lives at another path), the closest
 * paths, and other repositories (that the caller may read) that have this exact path.
 */
export async function pathNotFound(deps: ReaderDeps, principal: Principal | null, target: Target, path: string, what: 'file' | 'folder'): Promise<ToolError> {
  const { snapshot, repository } = target;
  const [retired, ranked] = await Promise.all([
    what === 'file' ? deps.index.findRetired(snapshot, path) : Promise.resolve(null),
    what === 'file' ? suggestFiles(deps, snapshot, path, 5) : suggestFolders(deps, snapshot, path, 5),
  ]);
  const movedTo = retired ? (await deps.index.findByBlobSha(snapshot, retired.blobSha, 3)).filter((p) => p !== path) : [];
  const close = ranked.filter((r) => r.score >= MIN_SCORE);
  const suggestions = [...new Set([...movedTo, ...close.map((r) => r.path)])].slice(0, 5);
  const elsewhere = close.some((r) => r.score >= CLOSE_MATCH) || movedTo.length > 0 ? [] : await otherRepositoriesWithPath(deps, principal, target, path);

  const at = `${repository.fullName} at ${shortRef(target.state.ref)} (${shortSha(target.state.commitSha)})`;
  let message = `No ${what} ${path} in ${at}.`;
  if (movedTo.length > 0) message += ` It was moved: its content is now at ${movedTo[0]}.`;
  else if (retired) message += ' It existed at an earlier indexed commit and was deleted or renamed since.';
  const rest = suggestions.filter((s) => s !== movedTo[0]);
  if (rest.length > 0) message += ` Did you mean: ${rest.join(', ')}?`;
  if (elsewhere.length > 0) message += ` ${path} exists in ${elsewhere.join(', ')}: pass that repository instead.`;
  message += what === 'file' ? ' suggest_paths finds files by part of a name or path; list_files browses a folder.' : ' list_files without folder lists the root; suggest_paths finds files by name.';
  return new ToolError('NOT_FOUND', message, { suggestions: [...suggestions, ...elsewhere] });
}

/** Repositories the caller may read whose default branch has a file at this very path. */
async function otherRepositoriesWithPath(deps: ReaderDeps, principal: Principal | null, target: Target, path: string): Promise<string[]> {
  const repositories = (await deps.index.listRepositories()).filter((r) => r.repositoryId !== target.repository.repositoryId && deps.access(r, principal));
  if (repositories.length === 0) return [];
  const byId = new Map(repositories.map((r) => [r.repositoryId, r]));
  const states = await deps.index.listRefStates();
  const snapshots: Snapshot[] = [];
  for (const state of states) {
    const repository = byId.get(state.repositoryId);
    if (!repository || state.commitSha === null || state.ref !== `refs/heads/${repository.defaultBranch}`) continue;
    snapshots.push(snapshotOf(state));
    if (snapshots.length >= MAX_OTHER_REPOSITORIES) break;
  }
  if (snapshots.length === 0) return [];
  const found = await deps.index.snapshotsWithPath(snapshots, path);
  return found
    .map((s) => byId.get(s.repositoryId)?.fullName)
    .filter((name): name is string => name !== undefined)
    .slice(0, 5);
}
