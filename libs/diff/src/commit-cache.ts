/**
 * Commit records kept in memory per history store, by repository and sha: a commit never
 * changes, so an entry never goes stale, and the reader and the indexer read the commits a ref
 * holds without asking the store again. The oldest entry goes first past the bound. Only commits
 * a ref holds are read through it: those are stored (pruning keeps what a ref holds), so a hit
 * never stands for a record the store lacks.
 */
const MAX_CACHED_COMMITS = 200_000;
const caches = new WeakMap<object, Map<string, { sha: string }>>();

function cacheOf(store: object): Map<string, { sha: string }> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map<string, { sha: string }>()));
  return cache;
}

/** Keeps records just read or written. */
export function rememberCommits(store: object, repositoryId: number, commits: Iterable<{ sha: string }>): void {
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

/** The records of commits a ref holds: from memory, the rest in one `read` of the store. */
export async function cachedCommits<T extends { sha: string }>(store: object, repositoryId: number, shas: Iterable<string>, read: (missing: string[]) => Promise<T[]>): Promise<T[]> {
  const cache = cacheOf(store);
  const found: T[] = [];
  const missing: string[] = [];
  for (const sha of shas) {
    const known = cache.get(`${repositoryId}:${sha}`);
    if (known) found.push(known as T);
    else missing.push(sha);
  }
  if (missing.length === 0) return found;
  const fetched = await read(missing);
  rememberCommits(store, repositoryId, fetched);
  return [...found, ...fetched];
}
