/**
 * The commits a ref's history holds, as records by sha: the one way list_commits, compare and
 * blame load them, through the commit cache the indexer shares (@gitdex/diff).
 */
import { cachedCommits } from '@gitdex/diff';
import type { CommitRecord, HistoryReads } from '@gitdex/ports';
import type { ReaderDeps } from '../deps';
import type { Target } from '../target';
import { shortRef } from '../freshness';
import { ToolError } from '../tool-error';

export function historyOf(deps: ReaderDeps): HistoryReads {
  if (!deps.history) throw new ToolError('UNAVAILABLE', 'This gitdex serves no history (its index keeps none): list_commits, compare and blame are off here; read files with read_file.');
  return deps.history;
}

/** The commits these refs hold, by sha (a ref with no history yet adds none). */
export async function loadHeldCommits(deps: ReaderDeps, history: HistoryReads, repositoryId: number, refs: readonly string[]): Promise<Map<string, CommitRecord>> {
  const options = deps.signal ? { signal: deps.signal } : {};
  const shas = new Set<string>();
  for (const ref of new Set(refs)) {
    const held = await history.getRefHistory(repositoryId, ref, options);
    for (const sha of held?.commits ?? []) shas.add(sha);
  }
  const commits = new Map<string, CommitRecord>();
  for (const commit of await cachedCommits(history, repositoryId, shas, (missing) => history.getCommits(repositoryId, missing, options))) commits.set(commit.sha, commit);
  return commits;
}

/**
 * The commits a target's ref holds. The history is written before the ref flips, so the commit
 * the target serves is in it; a ref indexed before history was kept, or with history turned off,
 * has none yet and says so.
 */
export async function heldCommits(deps: ReaderDeps, target: Target): Promise<{ head: string; commits: Map<string, CommitRecord> }> {
  const commits = await loadHeldCommits(deps, historyOf(deps), target.repository.repositoryId, [target.snapshot.ref]);
  if (!commits.has(target.state.commitSha)) throw historyNotRecorded(target);
  return { head: target.state.commitSha, commits };
}

/**
 * A served ref whose history the index does not hold. The reader cannot tell why, so the answer
 * names every cause and what mends it: retrying mends none of them but the first.
 */
export function historyNotRecorded(target: Target): ToolError {
  return new ToolError(
    'NOT_INDEXED',
    `The history of ${target.repository.fullName} at ${shortRef(target.state.ref)} is not recorded. gitdex records a ref's commits as it indexes the ref, when it reads GitHub with a token or a GitHub App (GitHub answers history only to those) and GITDEX_HISTORY_DEPTH is above 0; a ref indexed before that gets its history at its next push or backfill (gitdex index ${target.repository.fullName}).`,
  );
}
