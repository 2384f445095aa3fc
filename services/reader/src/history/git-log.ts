import type { CommitRecord } from '@gitdex/ports';

/** A pathspec as `git log -- path` takes it: the path itself or anything below it; empty matches all. */
export function pathMatcher(path: string | undefined): ((candidate: string) => boolean) | null {
  const spec = (path ?? '').replace(/^\/+|\/+$/g, '');
  if (spec === '' || spec === '.') return null;
  return (candidate) => candidate === spec || candidate.startsWith(`${spec}/`);
}

type Records = ReadonlyMap<string, CommitRecord>;

/** The blob at `path` in `sha` by its first-parent changes; undefined when older than the history held. */
function blobAt(commits: Records, sha: string | undefined, path: string): string | null | undefined {
  const seen = new Set<string>();
  for (let at = sha; at !== undefined && !seen.has(at);) {
    seen.add(at);
    const commit = commits.get(at);
    if (!commit) return undefined;
    for (const f of commit.files) {
      if (f.path === path) return f.status === 'removed' ? null : f.blobAfter;
      if (f.status === 'renamed' && f.previousPath === path) return null;
    }
    if (commit.parents.length === 0) return null;
    at = commit.parents[0];
  }
  return undefined;
}

/** Whether a commit's changes against its first parent touch the pathspec. */
function changesFirstParent(commit: CommitRecord, matches: (path: string) => boolean): boolean {
  return commit.files.some((f) => matches(f.path) || (f.previousPath !== null && matches(f.previousPath)));
}

/**
 * Whether `commit` and its parent `n` (n ≥ 1) have the same content under the pathspec, by
 * comparing the blob of every path under it that any held commit changed. Paths whose version
 * on both sides is older than the history held count as equal.
 */
function sameAsLaterParent(commits: Records, commit: CommitRecord, n: number, matches: (path: string) => boolean, candidates: readonly string[]): boolean {
  const parent = commit.parents[n];
  if (parent === undefined || !commits.has(parent)) return false;
  for (const path of candidates) {
    if (!matches(path)) continue;
    const mine = blobAt(commits, commit.sha, path);
    const theirs = blobAt(commits, parent, path);
    if (mine !== theirs) return false;
  }
  return true;
}

/** Every path any held commit changed (both sides of a rename). */
function changedPaths(commits: Records): string[] {
  const paths = new Set<string>();
  for (const commit of commits.values()) {
    for (const f of commit.files) {
      paths.add(f.path);
      if (f.previousPath !== null) paths.add(f.previousPath);
    }
  }
  return [...paths];
}

/** A max-heap on committer time; equal times come out in insertion order, as git's prio_queue. */
class DateQueue {
  private readonly heap: { time: number; order: number; sha: string }[] = [];
  private inserted = 0;

  get size(): number {
    return this.heap.length;
  }

  push(sha: string, time: number): void {
    this.heap.push({ time, order: this.inserted++, sha });
    let i = this.heap.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.before(i, up)) break;
      this.swap(i, up);
      i = up;
    }
  }

  pop(): string | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (!top || !last) return undefined;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < this.heap.length && this.before(l, best)) best = l;
        if (r < this.heap.length && this.before(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top.sha;
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a] as { time: number; order: number };
    const y = this.heap[b] as { time: number; order: number };
    return x.time > y.time || (x.time === y.time && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const t = this.heap[a] as (typeof this.heap)[number];
    this.heap[a] = this.heap[b] as (typeof this.heap)[number];
    this.heap[b] = t;
  }
}

export interface LogResult {
  /** In `git log` order. */
  shas: string[];
  /** The walk met a parent older than the history held. */
  reachedBoundary: boolean;
}

/**
 * `git log head [-- path]` over the commits held, as git walks it by default: newest committer
 * time first from a queue that each shown or skipped commit feeds with its parents; with a path,
 * git's default history simplification: a commit whose content under the path equals one of its
 * parents' is not shown and only that parent is followed (the first such parent, in parent order).
 */
export function gitLog(commits: Records, head: string, path?: string): LogResult {
  const matches = pathMatcher(path);
  const candidates = matches ? changedPaths(commits).filter(matches) : [];
  const shas: string[] = [];
  let reachedBoundary = false;
  const seen = new Set<string>();
  const queue = new DateQueue();
  const enqueue = (sha: string) => {
    if (seen.has(sha)) return;
    seen.add(sha);
    const commit = commits.get(sha);
    if (!commit) {
      reachedBoundary = true;
      return;
    }
    queue.push(sha, Date.parse(commit.committer.date));
  };
  enqueue(head);
  while (queue.size > 0) {
    const commit = commits.get(queue.pop() as string) as CommitRecord;
    let parents = commit.parents;
    let shown = true;
    if (matches) {
      if (parents.length === 0) shown = changesFirstParent(commit, matches);
      else {
        for (let n = 0; n < parents.length; n += 1) {
          const same = n === 0 ? !changesFirstParent(commit, matches) : sameAsLaterParent(commits, commit, n, matches, candidates);
          if (same) {
            parents = [parents[n] as string];
            shown = false;
            break;
          }
        }
      }
    }
    if (shown) shas.push(commit.sha);
    for (const parent of parents) enqueue(parent);
  }
  return { shas, reachedBoundary };
}
