// Changed files between two commits (GitHub reports renames as remove + add in push payloads).
import { EMPTY_TREE_SHA, git, splitNul } from './git';

export type ChangeStatus = 'added' | 'removed' | 'modified' | 'renamed';

export interface FileChange {
  path: string;
  status: ChangeStatus;
  /** Object id after the change (the old one for removals). */
  sha: string;
  mode: string;
  additions: number;
  deletions: number;
  /** The path before a rename (compare and commit answers detect renames; push payloads do not). */
  previousPath?: string;
  /** The hunks from the first `@@`, as GitHub's commit endpoint gives them; absent for binary files and bare renames or mode changes. */
  patch?: string;
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', D: 'removed', M: 'modified', T: 'modified' };

/**
 * Files changed from `base` (null = empty tree, i.e. a root commit) to `head`.
 * Uses `diff-tree --raw --numstat -z`, which prints every raw record, then every numstat record.
 */
export async function diffCommits(dir: string, base: string | null, head: string, options: { renames?: boolean } = {}): Promise<FileChange[]> {
  const args = ['diff-tree', '-r', '-z', options.renames ? '-M' : '--no-renames', '--no-commit-id', '--no-abbrev', '--raw', '--numstat', base ?? EMPTY_TREE_SHA, head];
  const fields = splitNul(await git(dir, args));
  const changes: FileChange[] = [];
  const byPath = new Map<string, FileChange>();
  let i = 0;
  while (i < fields.length) {
    const field = fields[i] ?? '';
    if (field.startsWith(':')) {
      const [oldMode = '', newMode = '', oldSha = '', newSha = '', letter = 'M'] = field.slice(1).split(' ');
      const renamed = letter.startsWith('R');
      const path = fields[i + (renamed ? 2 : 1)] ?? '';
      const status = renamed ? 'renamed' : (STATUS[letter.charAt(0)] ?? 'modified');
      const change: FileChange = {
        path,
        status,
        sha: status === 'removed' ? oldSha : newSha,
        mode: status === 'removed' ? oldMode : newMode,
        additions: 0,
        deletions: 0,
        ...(renamed ? { previousPath: fields[i + 1] ?? '' } : {}),
      };
      changes.push(change);
      byPath.set(path, change);
      i += renamed ? 3 : 2;
    } else {
      // numstat: "<added>\t<deleted>\t<path>" ("-" for binary files); a rename ends in a tab, then old and new paths
      const [added = '0', deleted = '0', ...rest] = field.split('\t');
      const renameRecord = rest.join('\t') === '';
      const change = byPath.get(renameRecord ? (fields[i + 2] ?? '') : rest.join('\t'));
      if (change) {
        change.additions = Number(added) || 0;
        change.deletions = Number(deleted) || 0;
      }
      i += renameRecord ? 3 : 1;
    }
  }
  return changes;
}

/**
 * The same changes with each file's patch: `diff-tree -p` prints one section a file in the order
 * of its raw records, and GitHub's `patch` is a section from its first `@@`.
 */
export async function diffCommitsWithPatches(dir: string, base: string | null, head: string): Promise<FileChange[]> {
  const changes = await diffCommits(dir, base, head, { renames: true });
  const text = (await git(dir, ['diff-tree', '-r', '-M', '-p', '--no-commit-id', '--no-color', '--no-ext-diff', base ?? EMPTY_TREE_SHA, head])).toString('utf8');
  const sections = text.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  if (sections.length !== changes.length) return changes;
  sections.forEach((section, i) => {
    const at = section.search(/^@@ /m);
    const change = changes[i];
    if (at >= 0 && change) change.patch = section.slice(at).replace(/\n$/, '');
  });
  return changes;
}

export interface CommitCounts {
  changedFiles: number;
  additions: number;
  deletions: number;
}

/**
 * Each commit's change counts against its first parent (renames detected, a binary file 0 and 0),
 * for many commits in one `git log --no-walk` process: what GitHub's Commit.changedFilesIfAvailable,
 * additions and deletions say.
 */
export async function commitCounts(dir: string, shas: readonly string[]): Promise<Map<string, CommitCounts>> {
  const counts = new Map<string, CommitCounts>();
  if (shas.length === 0) return counts;
  const out = (await git(dir, ['log', '--no-walk=unsorted', '--diff-merges=first-parent', '-M', '--numstat', '-z', '--format=%x01%H', ...shas])).toString('utf8');
  for (const chunk of out.split('\x01').slice(1)) {
    const fields = chunk.split('\0');
    const sha = (fields[0] ?? '').trim();
    const c: CommitCounts = { changedFiles: 0, additions: 0, deletions: 0 };
    for (let i = 1; i < fields.length; i += 1) {
      const m = /^\n?(\d+|-)\t(\d+|-)\t(.*)$/s.exec(fields[i] ?? '');
      if (!m) continue;
      c.changedFiles += 1;
      c.additions += Number(m[1]) || 0;
      c.deletions += Number(m[2]) || 0;
      // A rename's record ends in a tab and names both paths in the next two fields.
      if (m[3] === '') i += 2;
    }
    counts.set(sha, c);
  }
  return counts;
}
