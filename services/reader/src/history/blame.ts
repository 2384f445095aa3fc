/**
 * Line → commit as `git blame` answers it (blame.c, pass_blame): starting at a commit's version
 * of a file, each line still unexplained is handed to the first parent in which it is unchanged
 * (a parent holding the very same blob takes every line), following a rename when the parent
 * lacks the path; what no parent takes stays with the commit. A commit with no parent in the
 * history held (a root commit, or one whose parents lie beyond it) takes what reaches it as a
 * boundary, which is what git answers in a shallow clone that ends there.
 */
import { bytesToText, detectRenames, LineIds, lineDiff, type ReadBlob, type RenameCandidate, spanCounts, splitRecords, type Tree } from '@gitdex/diff';

export interface BlameCommit {
  readonly parents: readonly string[];
  /** the commit time git orders its walk by (any monotonic unit) */
  readonly committedAt: number;
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

interface Pending {
  readonly origin: Origin;
  readonly committedAt: number;
  /** [final line index, line index in this origin's version] */
  lines: [number, number][];
}

const keyOf = (o: { commit: string; path: string }): string => `${o.commit}\u0000${o.path}`;

export async function blame(history: BlameHistory, head: string, path: string): Promise<BlamedLine[]> {
  const headCommit = await history.commit(head);
  const headBlob = await history.blobAt(head, path);
  if (!headCommit || headBlob === undefined) throw new BlamePathMissing(path);
  // Each version is read as a child and again as a parent: split it and number its lines once.
  const ids = new LineIds();
  const split = new Map<string, Promise<Version | undefined>>();
  const linesOf = (blob: string): Promise<Version | undefined> => {
    let version = split.get(blob);
    if (!version) {
      version = history.read(blob).then((bytes) => {
        if (!bytes) return undefined;
        const lines = splitRecords(bytesToText(bytes));
        return { lines, ids: ids.of(lines) };
      });
      split.set(blob, version);
    }
    return version;
  };
  const headLines = await linesOf(headBlob);
  if (!headLines) throw new BlamePathMissing(path);
  const total = headLines.lines.length;
  const result: BlamedLine[] = new Array<BlamedLine>(total);

  const pending = new Map<string, Pending>();
  const enqueue = (origin: Origin, committedAt: number, lines: [number, number][]): void => {
    if (lines.length === 0) return;
    const key = keyOf(origin);
    const p = pending.get(key);
    if (p) p.lines.push(...lines);
    else pending.set(key, { origin, committedAt, lines });
  };
  enqueue(
    { commit: head, path, blob: headBlob },
    headCommit.committedAt,
    Array.from({ length: total }, (_, i): [number, number] => [i, i]),
  );

  while (pending.size > 0) {
    // Newest commit first, as git's walk goes; the order changes only how much work is shared.
    let next: Pending | undefined;
    for (const p of pending.values()) if (!next || p.committedAt > next.committedAt) next = p;
    pending.delete(keyOf(next!.origin));
    const { origin, lines } = next!;
    const commit = (await history.commit(origin.commit))!;
    const parents: { sha: string; info: BlameCommit }[] = [];
    for (const sha of commit.parents) {
      const info = await history.commit(sha);
      if (info) parents.push({ sha, info });
    }
    const settle = (remaining: [number, number][], boundary: boolean): void => {
      for (const [finalIndex, at] of remaining) {
        result[finalIndex] = { commit: origin.commit, path: origin.path, line: at + 1, boundary };
      }
    };
    if (parents.length === 0) {
      // git treats a root commit as a boundary too (unless `--root`), so both read the same.
      settle(lines, true);
      continue;
    }

    // The origin in each parent; a parent whose blob an earlier parent already has adds nothing.
    const scapegoats: (Origin | undefined)[] = [];
    let whole: Origin | undefined;
    for (const parent of parents) {
      const found = await originIn(history, origin, parent.sha);
      if (found && found.blob === origin.blob) {
        whole = found;
        break;
      }
      scapegoats.push(found && !scapegoats.some((s) => s?.blob === found.blob) ? found : undefined);
    }
    if (whole) {
      const info = parents.find((p) => p.sha === whole.commit)!.info;
      enqueue(whole, info.committedAt, lines);
      continue;
    }

    let remaining = lines;
    const originLines = await linesOf(origin.blob);
    for (let i = 0; i < scapegoats.length && remaining.length > 0 && originLines; i++) {
      const target = scapegoats[i];
      const parentLines = target && (await linesOf(target.blob));
      if (!target || !parentLines) continue;
      const toParent = unchangedMap(parentLines, originLines, ids);
      const passed: [number, number][] = [];
      const kept: [number, number][] = [];
      for (const [finalIndex, at] of remaining) {
        const there = toParent[at]!;
        if (there >= 0) passed.push([finalIndex, there]);
        else kept.push([finalIndex, at]);
      }
      enqueue(target, parents[i]!.info.committedAt, passed);
      remaining = kept;
    }
    settle(remaining, false);
  }
  return result;
}

/** For each line of the child, its line in the parent when unchanged there, else -1. */
interface Version {
  readonly lines: string[];
  readonly ids: Int32Array;
}

function unchangedMap(parent: Version, child: Version, ids: LineIds): Int32Array {
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
