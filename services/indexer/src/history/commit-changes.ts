import { diffFile, pairTrees, type Tree } from '@gitdex/diff';
import type { SourceCommitFile } from '@gitdex/ports';

class MissingBlob extends Error {}

/**
 * A commit's files from the versions before and after it at the paths that may have changed,
 * paired into renames and counted in lines by the diff core compare answers with; null when they
 * cannot be the commit's whole change as the source counts it (another file changed, or the line
 * counts differ) or a blob's bytes are not in hand: the caller then asks the commit endpoint.
 */
export async function changesBetween(
  before: Tree,
  after: Tree,
  counts: { changedFiles: number | null; additions: number; deletions: number },
  blobs: ReadonlyMap<string, Buffer>,
): Promise<SourceCommitFile[] | null> {
  if (counts.changedFiles === null) return null;
  const read = (sha: string): Promise<Uint8Array> => {
    const bytes = blobs.get(sha);
    return bytes ? Promise.resolve(bytes) : Promise.reject(new MissingBlob(sha));
  };
  try {
    const pairs = await pairTrees(before, after, read);
    if (pairs.length !== counts.changedFiles) return null;
    const files: SourceCommitFile[] = [];
    let additions = 0;
    let deletions = 0;
    for (const pair of pairs) {
      const [old, next] = await Promise.all([pair.oldSha ? read(pair.oldSha) : new Uint8Array(0), pair.newSha ? read(pair.newSha) : new Uint8Array(0)]);
      const diff = diffFile(old, next, 0);
      additions += diff.additions;
      deletions += diff.deletions;
      files.push({
        path: pair.path,
        previousPath: pair.previousPath ?? null,
        status: pair.status,
        additions: diff.additions,
        deletions: diff.deletions,
        sha: (pair.status === 'removed' ? pair.oldSha : pair.newSha) ?? '',
        ...(pair.oldSha ? { previousSha: pair.oldSha } : {}),
      });
    }
    // The source's own totals confirm the line counts (git's diff and this one agree by design; a
    // disagreement sends the commit to the commit endpoint rather than storing a guess).
    return additions === counts.additions && deletions === counts.deletions ? files : null;
  } catch (error) {
    if (error instanceof MissingBlob) return null;
    throw error;
  }
}
