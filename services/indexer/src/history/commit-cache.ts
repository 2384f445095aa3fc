/**
 * Commit records the indexer read or wrote, kept per history store by repository and sha: a
 * commit never changes, so an entry never goes stale, and every push of a ref reads the commits
 * its history holds without asking the store again. The oldest entry goes first past the bound.
 * Only commits a ref holds are read through it: those are stored (pruning keeps what a ref
 * holds), so a hit never stands for a record the store lacks.
 */
import type { CommitRecord, HistoryStore } from '@gitdex/ports';

const MAX_CACHED_COMMITS = 200_000;
const caches = new WeakMap<HistoryStore, Map<string, CommitRecord>>();

function cacheOf(store: HistoryStore): Map<string, CommitRecord> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map<string, CommitRecord>()));
  return cache;
}

/** Keeps records just read or written. */
export function rememberCommits(store: HistoryStore, repositoryId: number, commits: Iterable<CommitRecord>): void {
  const cache = cacheOf(store);
  for (const commit of commits) {
    const id = `${repositoryId}:${commit.sha}`;
    if (cache.has(id)) continue;
    if (cache.size >= MAX_CACHED_COMMITS) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(id, commit);
  }
}

/** The records of commits a ref holds: from memory, the rest in one read of the store. */
export async function heldCommitRecords(store: HistoryStore, repositoryId: number, shas: readonly string[]): Promise<CommitRecord[]> {
  const cache = cacheOf(store);
  const found: CommitRecord[] = [];
  const missing: string[] = [];
  for (const sha of shas) {
    const known = cache.get(`${repositoryId}:${sha}`);
    if (known) found.push(known);
    else missing.push(sha);
  }
  if (missing.length === 0) return found;
  const read = await store.getCommits(repositoryId, missing);
  rememberCommits(store, repositoryId, read);
  return [...found, ...read];
}
