import type { RefState, RepositoryDocument, SearchCodeInput } from '@gitdex/contracts';
import { patternMatches } from '../access';
import { parseRepositoryName, refOfRepositoryUrl } from '../address/repository-name';
import type { Principal, ReaderDeps } from '../deps';
import { freshnessOf } from '../freshness';
import { findRepository, lookupByName, resolveTarget, unknownRepository, type Target } from '../target';
import { invalid } from '../tool-error';
import { snapshotOf } from '../snapshot-of';
import { refTargets } from './ref-scope';

/** Repositories one call searches at most; name fewer (repositories) to search others. */
export const MAX_SEARCHED_REPOSITORIES = 500;

/**
 * The refs a search reads: one repository (any accepted spelling, optional ref), a list of
 * names and "owner/*" patterns, or every repository the caller may read. Only readable
 * repositories are ever considered: a private one the caller's token does not cover is
 * neither searched, counted nor named, exactly like one that does not exist.
 */
export async function searchTargets(deps: ReaderDeps, principal: Principal | null, input: Pick<SearchCodeInput, 'repository' | 'repositories' | 'ref' | 'refs'>): Promise<Target[]> {
  if (input.repository !== undefined && input.repositories !== undefined)
    throw invalid('repository and repositories: give one of them (repositories takes a list), or neither to search every repository you can read');
  if (input.ref !== undefined && input.repository === undefined) throw invalid('ref: only with repository (one repository); a search of several repositories reads each default branch');
  if (input.refs !== undefined && input.repository === undefined) throw invalid('refs: only with repository (one repository); a search of several repositories reads each default branch');
  if (input.refs !== undefined && input.ref !== undefined) throw invalid('ref and refs: give one of them (refs takes a list, such as ["main", "pull/*"])');
  if (input.repository !== undefined) {
    const repository = await findRepository(deps, principal, input.repository);
    if (input.refs !== undefined) return refTargets(deps, repository, input.refs);
    return [await resolveTarget(deps, repository, input.ref ?? refOfRepositoryUrl(input.repository, deps.githubWebUrl))];
  }
  const readable = (await deps.index.listRepositories()).filter((r) => deps.access(r, principal));
  let chosen: RepositoryDocument[];
  if (input.repositories === undefined) chosen = readable;
  else {
    const picked = new Map<number, RepositoryDocument>();
    for (const item of input.repositories) {
      const pattern = item.includes('*') ? item.trim() : parseRepositoryName(item, deps.githubWebUrl);
      if (pattern.includes('*')) {
        if (!/^[^/*]+\/\*$/.test(pattern) && pattern !== '*') throw invalid(`repositories: "${item}" is not "owner/name" or "owner/*"`);
        for (const r of readable) if (patternMatches(pattern, r.fullName)) picked.set(r.repositoryId, r);
        continue;
      }
      const repository = await lookupByName(deps, pattern);
      if (!repository || !deps.access(repository, principal)) throw await unknownRepository(deps, principal, pattern);
      picked.set(repository.repositoryId, repository);
    }
    chosen = [...picked.values()];
  }
  chosen.sort((a, b) => (a.fullNameLower < b.fullNameLower ? -1 : a.fullNameLower > b.fullNameLower ? 1 : a.repositoryId - b.repositoryId));
  if (chosen.length > MAX_SEARCHED_REPOSITORIES) {
    throw invalid(`repositories: this would search ${chosen.length} repositories, at most ${MAX_SEARCHED_REPOSITORIES} a call: name fewer (e.g. "owner/*")`);
  }
  const allStates = await deps.index.listRefStates();
  const targets: Target[] = [];
  for (const repository of chosen) {
    // The default branch as served now; a repository with nothing readable yet is left out
    // (without queueing a backfill: a search is no request to index everything).
    const state = allStates.find((s) => s.repositoryId === repository.repositoryId && s.ref === `refs/heads/${repository.defaultBranch}`);
    if (!state || state.commitSha === null) continue;
    const ready = state as RefState & { commitSha: string };
    targets.push({ repository, state: ready, snapshot: snapshotOf(ready), freshness: freshnessOf(ready) });
  }
  return targets;
}
