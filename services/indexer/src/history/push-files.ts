import type { Tree } from '@gitdex/diff';
import { changesBetween } from './commit-changes';
import type { HistorySource, SourceCommitFile, SourceCommitInfo, SourceCommitVersions, SourceComparison, SourceRepository } from '@gitdex/ports';

export interface PushFilesInput {
  repository: SourceRepository;
  installationId?: number;
  /** The push's compare from the served commit: its files name every path the push left changed. */
  comparison: { base: string; result: SourceComparison };
  /** The pushed commits whose files are wanted. */
  commits: readonly SourceCommitInfo[];
  /** Bytes the index already has (the served generation holds the base's versions, the new one the head's). */
  localBlobs?: (shas: string[]) => Promise<Map<string, Buffer>>;
}

export interface PushFiles {
  /** Files of the commits the one query settled; a commit absent here is read on its own. */
  files: Map<string, { files: SourceCommitFile[]; complete: true }>;
  /** Bytes the query and the index gave, by blob sha, for storing old versions without asking again. */
  blobs: Map<string, Buffer>;
}

const NONE: PushFiles = { files: new Map(), blobs: new Map() };

/**
 * The files of a push's commits from one GraphQL query: every commit's blob at each path compare
 * listed, with its own change counts. A commit's files are the paths whose blob differs from its
 * first parent's, renames and line counts found by the same diff core compare answers with. When a
 * commit's counts say more changed than those paths show (a file changed and changed back inside
 * the push, so compare does not list it), or a blob is missing, the commit is left to the commit
 * endpoint: the answer is exact either way, and only such commits cost a request more.
 */
export async function pushFiles(history: HistorySource, input: PushFilesInput): Promise<PushFiles> {
  const { comparison, commits } = input;
  const result = comparison.result;
  if (!history.pathVersions || commits.length < 2 || result.status !== 'ahead' || !result.complete) return NONE;
  const paths = [...new Set(result.files.flatMap((f) => (f.previousPath ? [f.path, f.previousPath] : [f.path])))].sort();
  const head = commits[commits.length - 1]?.sha;
  const asked = [comparison.base, ...commits.map((c) => c.sha)];
  // The base's versions are in the served generation and the head's in the new one: only the
  // commits between send their bytes.
  const withContent = new Set(commits.map((c) => c.sha).filter((sha) => sha !== head));
  const versions = await history.pathVersions(input.repository, asked, paths, { withContent, ...(input.installationId ? { installationId: input.installationId } : {}) });
  if (!versions) return NONE;

  const blobs = new Map<string, Buffer>();
  for (const v of versions.values()) for (const f of v.files.values()) if (f.content) blobs.set(f.sha, f.content);
  const named = new Set<string>();
  for (const v of versions.values()) for (const f of v.files.values()) if (f.type === 'blob' && !blobs.has(f.sha)) named.add(f.sha);
  if (input.localBlobs && named.size > 0) for (const [sha, bytes] of await input.localBlobs([...named])) blobs.set(sha, bytes);

  const files = new Map<string, { files: SourceCommitFile[]; complete: true }>();
  for (const commit of commits) {
    const own = versions.get(commit.sha);
    const parent = commit.parents.length === 1 && commit.parents[0] ? versions.get(commit.parents[0]) : undefined;
    if (!own || !parent) continue;
    const [before, after] = [treeOf(parent), treeOf(own)];
    const found = before && after ? await changesBetween(before, after, { changedFiles: own.changedFiles, additions: own.additions, deletions: own.deletions }, blobs) : null;
    if (found) files.set(commit.sha, { files: found, complete: true });
  }
  return { files, blobs };
}

function treeOf(versions: SourceCommitVersions): Tree | null {
  const tree = new Map<string, { sha: string; mode: string }>();
  for (const [path, f] of versions.files) {
    if (f.type !== 'blob') return null;
    tree.set(path, { sha: f.sha, mode: f.mode });
  }
  return tree;
}
