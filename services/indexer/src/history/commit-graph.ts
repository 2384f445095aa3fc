import type { CommitFile, CommitRecord } from '@gitdex/ports';

/** The commits reachable from `head` through parents among `commits` (head included when present). */
export function reachable(head: string, commits: ReadonlyMap<string, Pick<CommitRecord, 'parents'>>): Set<string> {
  const seen = new Set<string>();
  const stack = [head];
  while (stack.length > 0) {
    const sha = stack.pop() as string;
    if (seen.has(sha)) continue;
    const commit = commits.get(sha);
    if (!commit) continue;
    seen.add(sha);
    for (const parent of commit.parents) if (!seen.has(parent)) stack.push(parent);
  }
  return seen;
}

/** Parents before children: the order in which a change's version before can be looked up. */
export function parentsFirst<T extends Pick<CommitRecord, 'sha' | 'parents'>>(commits: readonly T[]): T[] {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const done = new Set<string>();
  const out: T[] = [];
  for (const start of commits) {
    const stack: { commit: T; expanded: boolean }[] = [{ commit: start, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop() as { commit: T; expanded: boolean };
      if (done.has(top.commit.sha)) continue;
      if (top.expanded) {
        done.add(top.commit.sha);
        out.push(top.commit);
        continue;
      }
      stack.push({ commit: top.commit, expanded: true });
      for (const parent of top.commit.parents) {
        const p = bySha.get(parent);
        if (p && !done.has(parent)) stack.push({ commit: p, expanded: false });
      }
    }
  }
  return out;
}

/** What a commit's own changes say about a path: its blob there, gone, or nothing (look at the first parent). */
function ownVersion(files: readonly CommitFile[], path: string): { known: true; blob: string | null } | { known: false } {
  for (const f of files) {
    if (f.path === path) return { known: true, blob: f.status === 'removed' ? null : f.blobAfter };
    if (f.status === 'renamed' && f.previousPath === path) return { known: true, blob: null };
  }
  return { known: false };
}

/**
 * The blob at `path` in commit `sha`, found by walking first parents until a commit changed it:
 * a string, null when the path holds no file there, undefined when the walk left the commits
 * held before finding out (the version is older than the history held).
 */
export function blobAt(commits: ReadonlyMap<string, Pick<CommitRecord, 'parents' | 'files'>>, sha: string | undefined, path: string): string | null | undefined {
  let at = sha;
  const seen = new Set<string>();
  while (at !== undefined && !seen.has(at)) {
    seen.add(at);
    const commit = commits.get(at);
    if (!commit) return undefined;
    const own = ownVersion(commit.files, path);
    if (own.known) return own.blob;
    // A root commit's files are against the empty tree: a path it did not add is absent.
    if (commit.parents.length === 0) return null;
    at = commit.parents[0];
  }
  return undefined;
}
