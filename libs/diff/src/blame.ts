/**
 * Line → commit as `git blame` answers it (blame.c, pass_blame): starting at a commit's version
 * of a file, each line still unexplained is handed to the first parent in which it is unchanged
 * (a parent holding the very same blob takes every line), following a rename when the parent
 * lacks the path; what no parent takes stays with the commit. A commit with no parent in the
 * history held (a root commit, or one whose parents lie beyond it) takes what reaches it as a
 * boundary, which is what git answers in a shallow clone that ends there.
 */
import { lineDiff } from './line-diff';
import type { Lines } from './prepare';
import { detectRenames, type RenameCandidate } from './renames';
import { spanCounts } from './similarity';
import type { ReadBlob, Tree } from './tree-diff';
import { ByteLineIds } from './byte-lines';

export interface BlameCommit {
  readonly parents: readonly string[];
}

/** What blame reads of a history: commits, which blob a path has in one, and blob bytes. */
export interface BlameHistory {
  /** undefined when the commit lies beyond the history held */
  commit(sha: string): Promise<BlameCommit | undefined>;
  /** the blob at path in the commit, undefined when the commit has no such file */
  blobAt(sha: string, path: string): Promise<string | undefined>;
  /** where path came from in parent when the commit renamed it there, as `git diff -M parent commit` says */
  renamedFrom(sha: string, parent: string, path: string): Promise<string | undefined>;
  /** undefined when the bytes are not held (the lines then stay with the commit that has them) */
  read(blob: string): Promise<Uint8Array | undefined>;
  /** names the commit and the part of the history held below it (a memo's key); the sha when the whole history is there */
  key?(sha: string): string;
}

/** Trees and commits, as a git repository has them. */
export interface TreeHistory {
  commit(sha: string): Promise<BlameCommit | undefined>;
  tree(sha: string): Promise<Tree>;
  readonly read: ReadBlob;
}

export interface BlamedLine {
  readonly commit: string;
  /** the path the line had in that commit (differs from the asked path across a rename) */
  readonly path: string;
  /** 1-based line number in that commit's version of the file */
  readonly line: number;
  readonly boundary: boolean;
}

export class BlamePathMissing extends Error {
  constructor(readonly path: string) {
    super(`no file ${path} at that commit`);
  }
}

interface Origin {
  readonly commit: string;
  readonly path: string;
  readonly blob: string;
}

/** Who owns a line: a commit and the path the file had there. */
export interface BlameOwner {
  readonly commit: string;
  readonly path: string;
  readonly boundary: boolean;
}

/**
 * The blame of one version (a commit's file at a path), line by line: `owner[i]` indexes
 * `owners`, `at[i]` is the line's 0-based number in that owner's version. A version whose bytes
 * are not held has no lines of its own to compare, so every line it is asked about stays with it
 * (`owner` null: line i is the single owner's line i).
 */
export interface VersionBlame {
  readonly owners: readonly BlameOwner[];
  readonly owner: Int32Array | null;
  readonly at: Int32Array | null;
}

/**
 * Blames of versions already computed, kept across calls. A blame is a function of the commit,
 * the path and the part of the history held below the commit, so the key is the history's
 * `key(commit)` (which names that part) and the path: an entry never goes stale, and a push
 * costs one line diff per parent at its next blame.
 */
export interface BlameMemo {
  get(key: string): Promise<VersionBlame> | undefined;
  set(key: string, blame: Promise<VersionBlame>): void;
  delete(key: string): void;
}

export const memoKey = (commitKey: string, path: string): string => `${commitKey}\u0000${path}`;

/**
 * git's pass to parents (blame.c), computed forward: a line of a version unchanged in a parent
 * (the first parent, in order, where it is) is owned by whoever owns that parent's line, which is
 * what handing the line back to the parent and blaming it there answers, since each line is
 * passed on by the same whole-file diff whichever child it came from. So the blame of a version
 * is its parents' blames plus one line diff per parent, and each version is blamed once.
 */
export async function blame(history: BlameHistory, head: string, path: string, memo?: BlameMemo): Promise<BlamedLine[]> {
  const headCommit = await history.commit(head);
  const headBlob = await history.blobAt(head, path);
  if (!headCommit || headBlob === undefined) throw new BlamePathMissing(path);
  const walk = new BlameWalk(history, memo);
  // A version blame kept with its lines (the store's, or computed before) needs no bytes read.
  const kept = await memo?.get(memoKey(history.key?.(head) ?? head, path));
  if (kept?.owner && kept.at) return linesOf(kept, kept.owner.length);
  const headLines = await walk.linesOf(headBlob);
  if (!headLines) throw new BlamePathMissing(path);
  return linesOf(await walk.versionBlame({ commit: head, path, blob: headBlob }), headLines.lines.length);
}

/**
 * The blame of one version as the memo keeps it, computed from what the memo holds plus one line
 * diff per parent of each version it lacks: how the indexer computes the version blames it
 * stores. The caller names a version it knows (commit, path and the blob there).
 */
export async function blameVersion(history: BlameHistory, head: string, path: string, blob: string, memo: BlameMemo): Promise<VersionBlame> {
  return new BlameWalk(history, memo).versionBlame({ commit: head, path, blob });
}

function linesOf(version: VersionBlame, count: number): BlamedLine[] {
  const result = new Array<BlamedLine>(count);
  for (let i = 0; i < result.length; i++) {
    const o = version.owners[version.owner ? version.owner[i]! : 0]!;
    result[i] = { commit: o.commit, path: o.path, line: (version.at ? version.at[i]! : i) + 1, boundary: o.boundary };
  }
  return result;
}

class BlameWalk {
  // Each version is read as a child and again as a parent: split it and number its lines once.
  private readonly ids = new ByteLineIds();
  private readonly split = new Map<string, Promise<Version | undefined>>();
  private readonly local = new Map<string, Promise<VersionBlame>>();

  constructor(
    private readonly history: BlameHistory,
    private readonly memo: BlameMemo | undefined,
  ) {}

  linesOf(blob: string): Promise<Version | undefined> {
    let version = this.split.get(blob);
    if (!version) {
      version = this.history.read(blob).then((bytes) => (bytes ? this.ids.of(bytes) : undefined));
      this.split.set(blob, version);
    }
    return version;
  }

  versionBlame(origin: Origin): Promise<VersionBlame> {
    const key = memoKey(this.history.key?.(origin.commit) ?? origin.commit, origin.path);
    let found = this.memo?.get(key) ?? this.local.get(key);
    if (!found) {
      found = this.compute(origin);
      this.local.set(key, found);
      if (this.memo) {
        const memo = this.memo;
        memo.set(key, found);
        // A failed read is not a blame: the next call tries again.
        found.catch(() => memo.delete(key));
      }
    }
    return found;
  }

  private async compute(origin: Origin): Promise<VersionBlame> {
    const history = this.history;
    const commit = (await history.commit(origin.commit))!;
    const parents: string[] = [];
    for (const sha of commit.parents) if (await history.commit(sha)) parents.push(sha);
    // git treats a root commit as a boundary too (unless `--root`), so both read the same.
    if (parents.length === 0) return whole({ commit: origin.commit, path: origin.path, boundary: true });

    // The origin in each parent; a parent whose blob an earlier parent already has adds nothing.
    const scapegoats: (Origin | undefined)[] = [];
    for (const parent of parents) {
      const found = await originIn(history, origin, parent);
      if (found && found.blob === origin.blob) return this.versionBlame(found);
      scapegoats.push(found && !scapegoats.some((s) => s?.blob === found.blob) ? found : undefined);
    }

    const self: BlameOwner = { commit: origin.commit, path: origin.path, boundary: false };
    const child = await this.linesOf(origin.blob);
    if (!child) return whole(self);
    const n = child.lines.length;
    const owner = new Int32Array(n).fill(-1);
    const at = new Int32Array(n);
    const owners: BlameOwner[] = [];
    const ownerIds = new Map<BlameOwner, number>();
    const idOf = (o: BlameOwner): number => {
      let id = ownerIds.get(o);
      if (id === undefined) ownerIds.set(o, (id = owners.push(o) - 1));
      return id;
    };
    let remaining = n;
    for (const target of scapegoats) {
      if (remaining === 0) break;
      const parentLines = target && (await this.linesOf(target.blob));
      if (!target || !parentLines) continue;
      const toParent = unchangedMap(parentLines, child, this.ids);
      let passes = false;
      for (let i = 0; i < n && !passes; i++) passes = owner[i] === -1 && toParent[i]! >= 0;
      if (!passes) continue;
      const theirs = await this.versionBlame(target);
      const translated = new Int32Array(theirs.owners.length).fill(-1);
      for (let i = 0; i < n; i++) {
        const there = toParent[i]!;
        if (owner[i] !== -1 || there < 0) continue;
        const o = theirs.owner ? theirs.owner[there]! : 0;
        if (translated[o] === -1) translated[o] = idOf(theirs.owners[o]!);
        owner[i] = translated[o]!;
        at[i] = theirs.at ? theirs.at[there]! : there;
        remaining--;
      }
    }
    if (remaining > 0) {
      const selfId = idOf(self);
      for (let i = 0; i < n; i++) {
        if (owner[i] !== -1) continue;
        owner[i] = selfId;
        at[i] = i;
      }
    }
    return { owners, owner, at };
  }
}

function whole(owner: BlameOwner): Promise<VersionBlame> {
  return Promise.resolve({ owners: [owner], owner: null, at: null });
}

/** For each line of the child, its line in the parent when unchanged there, else -1. */
interface Version {
  readonly lines: Lines;
  readonly ids: Int32Array;
}

function unchangedMap(parent: Version, child: Version, ids: ByteLineIds): Int32Array {
  const childLines = child.lines;
  const map = new Int32Array(childLines.length).fill(-1);
  let p = 0;
  let c = 0;
  for (const ch of lineDiff(parent.lines, childLines, { known: { ids, ids1: parent.ids, ids2: child.ids } })) {
    for (; c < ch.i2; c++, p++) map[c] = p;
    c = ch.i2 + ch.added;
    p = ch.i1 + ch.removed;
  }
  for (; c < childLines.length; c++, p++) map[c] = p;
  return map;
}

/** The parent's version of the origin's file: the same path, or where a rename came from. */
async function originIn(history: BlameHistory, origin: Origin, parent: string): Promise<Origin | undefined> {
  const same = await history.blobAt(parent, origin.path);
  if (same !== undefined) return { commit: parent, path: origin.path, blob: same };
  const from = await history.renamedFrom(origin.commit, parent, origin.path);
  const blob = from === undefined ? undefined : await history.blobAt(parent, from);
  return from === undefined || blob === undefined ? undefined : { commit: parent, path: from, blob };
}

/** BlameHistory over whole trees: renames found among the files the commit removed, as git finds them. */
export function treeBlameHistory(history: TreeHistory): BlameHistory {
  return {
    commit: (sha) => history.commit(sha),
    read: (blob) => history.read(blob),
    blobAt: async (sha, path) => (await history.tree(sha)).get(path)?.sha,
    renamedFrom: async (sha, parent, path) => {
      const parentTree = await history.tree(parent);
      const childTree = await history.tree(sha);
      const dst = childTree.get(path);
      if (!dst) return undefined;
      const sources: RenameCandidate[] = [];
      for (const [p, entry] of [...parentTree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (!childTree.has(p)) sources.push(await candidate(history.read, p, entry.sha, entry.mode));
      }
      const [rename] = detectRenames(sources, [await candidate(history.read, path, dst.sha, dst.mode)]);
      return rename && sources[rename.from]!.path;
    },
  };
}

async function candidate(read: ReadBlob, path: string, sha: string, mode: string | undefined): Promise<RenameCandidate> {
  const bytes = await read(sha);
  let counts: ReturnType<typeof spanCounts> | undefined;
  return {
    path,
    sha,
    ...(mode ? { mode } : {}),
    similarity: { size: bytes.length, counts: () => (counts ??= spanCounts(bytes)) },
  };
}
