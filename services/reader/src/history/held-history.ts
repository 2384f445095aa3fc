import type { CommitRecord, HistoryReads } from '@gitdex/ports';
import type { ReaderDeps } from '../deps';
import type { Target } from '../target';
import { ToolError } from '../tool-error';

/**
 * Commit records kept in memory per history store, by repository and sha: a commit never
 * changes, so nothing here goes stale; the oldest entry goes first past the bound.
 */
const MAX_CACHED_COMMITS = 200_000;
const caches = new WeakMap<HistoryReads, Map<string, CommitRecord>>();

function cacheOf(history: HistoryReads): Map<string, CommitRecord> {
  let cache = caches.get(history);
  if (!cache) caches.set(history, (cache = new Map<string, CommitRecord>()));
  return cache;
}

function remember(cache: Map<string, CommitRecord>, repositoryId: number, commit: CommitRecord): void {
  if (cache.size >= MAX_CACHED_COMMITS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(`${repositoryId}:${commit.sha}`, commit);
}

/** The history a target's ref holds, as records by sha (from memory where seen before). */
export interface HeldHistory {
  head: string;
  commits: Map<string, CommitRecord>;
}

export function historyOf(deps: ReaderDeps): HistoryReads {
  if (!deps.history) throw new ToolError('UNAVAILABLE', 'History is not kept by this server (it runs without a history store). Ask its operator to enable it.');
  return deps.history;
}

/**
 * The commits a ref holds, for a target read of it. The history is written before the ref flips,
 * so the commit the target serves is in it; a ref indexed before history was kept, or with
 * history turned off, has none yet and says so.
 */
export async function heldHistory(deps: ReaderDeps, target: Target): Promise<HeldHistory> {
  const history = historyOf(deps);
  const repositoryId = target.repository.repositoryId;
  const options = deps.signal ? { signal: deps.signal } : {};
  const held = await history.getRefHistory(repositoryId, target.snapshot.ref, options);
  if (!held || !held.commits.includes(target.state.commitSha)) {
    throw new ToolError('NOT_INDEXED', `The history of ${target.repository.fullName} at ${target.snapshot.ref} is not indexed yet (it is recorded with the ref's next index). Retry shortly.`);
  }
  const cache = cacheOf(history);
  const commits = new Map<string, CommitRecord>();
  const missing: string[] = [];
  for (const sha of held.commits) {
    const known = cache.get(`${repositoryId}:${sha}`);
    if (known) commits.set(sha, known);
    else missing.push(sha);
  }
  if (missing.length > 0) {
    for (const commit of await history.getCommits(repositoryId, missing, options)) {
      remember(cache, repositoryId, commit);
      commits.set(commit.sha, commit);
    }
  }
  return { head: target.state.commitSha, commits };
}
