import type { CommitRecord } from './history';

/**
 * What pruneCommits drops, decided once for every adapter: the commits no ref's history holds,
 * and the blobs no kept commit names (before or after a change).
 */
export function unreferencedHistory(held: readonly (readonly string[])[], commits: readonly Pick<CommitRecord, 'sha' | 'files'>[], blobs: readonly string[]): { commits: string[]; blobs: string[] } {
  const keep = new Set<string>();
  for (const list of held) for (const sha of list) keep.add(sha);
  const named = new Set<string>();
  const dropCommits: string[] = [];
  for (const commit of commits) {
    if (!keep.has(commit.sha)) {
      dropCommits.push(commit.sha);
      continue;
    }
    for (const file of commit.files) {
      if (file.blobBefore) named.add(file.blobBefore);
      if (file.blobAfter) named.add(file.blobAfter);
    }
  }
  return { commits: dropCommits, blobs: blobs.filter((sha) => !named.has(sha)) };
}
