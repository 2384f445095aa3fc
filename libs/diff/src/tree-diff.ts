/**
 * The files that differ between two trees, renames found as `git diff -M` finds them, in git's
 * output order (by path, a rename at its new path).
 */
import { diffFile, type FileDiff } from './file-diff';
import { detectRenames, type RenameCandidate, type RenameOptions } from './renames';
import { spanCounts, type SpanCounts } from './similarity';

export interface TreeEntry {
  readonly sha: string;
  /** git file mode; a regular file when absent */
  readonly mode?: string;
}

export type Tree = ReadonlyMap<string, TreeEntry>;

export type ReadBlob = (sha: string) => Promise<Uint8Array>;

export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed';

export interface FilePair {
  readonly status: FileStatus;
  readonly path: string;
  readonly previousPath?: string;
  readonly oldSha?: string;
  readonly newSha?: string;
  /** rename similarity in percent, as git prints it */
  readonly similarity?: number;
}

export interface FileChange extends FilePair, FileDiff {}

function byPath(a: string, b: string): number {
  // git orders paths by bytes; JavaScript compares UTF-16 units, which orders the same for every
  // character below U+D800 and keeps astral characters after, as UTF-8 bytes do.
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function pairTrees(base: Tree, head: Tree, read: ReadBlob, options: RenameOptions = {}): Promise<FilePair[]> {
  const removed: string[] = [];
  const added: string[] = [];
  const pairs: FilePair[] = [];
  for (const [path, entry] of base) {
    const now = head.get(path);
    if (!now) removed.push(path);
    else if (now.sha !== entry.sha || (now.mode ?? '100644') !== (entry.mode ?? '100644')) {
      pairs.push({ status: 'modified', path, oldSha: entry.sha, newSha: now.sha });
    }
  }
  for (const path of head.keys()) if (!base.has(path)) added.push(path);
  removed.sort(byPath);
  added.sort(byPath);

  const candidate = async (path: string, entry: TreeEntry): Promise<RenameCandidate> => {
    const bytes = await read(entry.sha);
    let counts: SpanCounts | undefined;
    return {
      path,
      sha: entry.sha,
      ...(entry.mode ? { mode: entry.mode } : {}),
      similarity: { size: bytes.length, counts: () => (counts ??= spanCounts(bytes)) },
    };
  };
  const needsContent = removed.length > 0 && added.length > 0;
  const sources = needsContent ? await Promise.all(removed.map((p) => candidate(p, base.get(p)!))) : [];
  const destinations = needsContent ? await Promise.all(added.map((p) => candidate(p, head.get(p)!))) : [];
  const renames = needsContent ? detectRenames(sources, destinations, options) : [];
  const renamedFrom = new Map(renames.map((r) => [r.to, r]));
  const usedSources = new Set(renames.map((r) => r.from));

  removed.forEach((path, i) => {
    if (!usedSources.has(i)) pairs.push({ status: 'removed', path, oldSha: base.get(path)!.sha });
  });
  added.forEach((path, i) => {
    const r = renamedFrom.get(i);
    if (!r) {
      pairs.push({ status: 'added', path, newSha: head.get(path)!.sha });
      return;
    }
    const previousPath = removed[r.from]!;
    pairs.push({
      status: 'renamed',
      path,
      previousPath,
      oldSha: base.get(previousPath)!.sha,
      newSha: head.get(path)!.sha,
      similarity: Math.floor((r.score * 100) / 60000),
    });
  });
  return pairs.sort((a, b) => byPath(a.path, b.path));
}

const EMPTY = new Uint8Array(0);

export async function diffPair(pair: FilePair, read: ReadBlob, context: number): Promise<FileChange> {
  const [old, next] = await Promise.all([pair.oldSha ? read(pair.oldSha) : EMPTY, pair.newSha ? read(pair.newSha) : EMPTY]);
  return { ...pair, ...diffFile(old, next, context) };
}
