import type { HistorySource, SourceCommitFile, SourceCommitInfo, SourceRepository, TreeEntry } from '@gitdex/ports';
import { changesBetween } from './commit-changes';

export interface BackfillFilesInput {
  repository: SourceRepository;
  installationId?: number;
  /** Commits from the source's log, each with its root tree and its own change counts. */
  commits: readonly SourceCommitInfo[];
  /** Old versions larger than this are not read (the content limit); their commits go to the commit endpoint. */
  maxBlobBytes: number;
  localBlobs?: (shas: string[]) => Promise<Map<string, Buffer>>;
}

export interface BackfillFiles {
  /** Files of the commits settled from trees; a commit absent here is read on its own. */
  files: Map<string, { files: SourceCommitFile[]; complete: true }>;
  /** Bytes read on the way, by blob sha, so storing them asks nothing again. */
  blobs: Map<string, Buffer>;
}

interface Side {
  /** A tree or commit oid whose entries are read, or null for a side that has nothing here. */
  before: string | null;
  after: string | null;
  prefix: string;
  commit: string;
}

type Versions = Map<string, { sha: string; mode: string }>;

/**
 * The files of a backfill's commits from GraphQL trees, diffed here: each commit's root tree
 * against its first parent's, descending only into subtrees whose oids differ, one query a level
 * for every commit at once (trees are shared by oid), then the changed blobs' bytes in batches
 * (the same bytes history stores anyway). Renames and line counts come from the diff core, each
 * commit checked against its own counts from the log; a merge, a root commit, a submodule, a blob
 * too large or binary to read, or a commit whose counts disagree is left to the commit endpoint.
 */
export async function backfillFiles(history: HistorySource, input: BackfillFilesInput): Promise<BackfillFiles> {
  const none: BackfillFiles = { files: new Map(), blobs: new Map() };
  if (!history.treeEntries) return none;
  const treeOf = new Map(input.commits.flatMap((c) => (c.tree ? [[c.sha, c.tree] as const] : [])));
  const wanted = input.commits.filter((c) => c.parents.length === 1 && c.counts && c.counts.changedFiles !== null && c.tree);
  if (wanted.length === 0) return none;

  const before = new Map<string, Versions>(wanted.map((c) => [c.sha, new Map()]));
  const after = new Map<string, Versions>(wanted.map((c) => [c.sha, new Map()]));
  const unusable = new Set<string>();
  const entries = new Map<string, TreeEntry[]>();
  let level: Side[] = wanted.map((c) => ({ commit: c.sha, prefix: '', before: treeOf.get(c.parents[0] as string) ?? (c.parents[0] as string), after: c.tree as string }));
  while (level.length > 0) {
    const ask = [...new Set(level.flatMap((s) => [s.before, s.after]).filter((oid): oid is string => oid !== null && !entries.has(oid)))];
    if (ask.length > 0) for (const [oid, list] of await history.treeEntries(input.repository, ask, input.installationId)) entries.set(oid, list);
    const next: Side[] = [];
    for (const side of level) {
      if (side.before === side.after) continue;
      const b = side.before === null ? [] : entries.get(side.before);
      const a = side.after === null ? [] : entries.get(side.after);
      if (!b || !a) {
        unusable.add(side.commit);
        continue;
      }
      const byName = new Map<string, { b?: TreeEntry; a?: TreeEntry }>();
      for (const e of b) byName.set(e.path, { b: e });
      for (const e of a) byName.set(e.path, { ...byName.get(e.path), a: e });
      for (const [name, { b: eb, a: ea }] of byName) {
        if (eb && ea && eb.sha === ea.sha && eb.mode === ea.mode) continue;
        const path = `${side.prefix}${name}`;
        if (eb?.type === 'commit' || ea?.type === 'commit') unusable.add(side.commit);
        const treeBefore = eb?.type === 'tree' ? eb.sha : null;
        const treeAfter = ea?.type === 'tree' ? ea.sha : null;
        if (treeBefore !== null || treeAfter !== null) next.push({ commit: side.commit, prefix: `${path}/`, before: treeBefore, after: treeAfter });
        if (eb?.type === 'blob') before.get(side.commit)?.set(path, { sha: eb.sha, mode: eb.mode });
        if (ea?.type === 'blob') after.get(side.commit)?.set(path, { sha: ea.sha, mode: ea.mode });
      }
    }
    level = next;
  }

  const named = new Set<string>();
  for (const c of wanted) {
    if (unusable.has(c.sha)) continue;
    for (const v of [...(before.get(c.sha)?.values() ?? []), ...(after.get(c.sha)?.values() ?? [])]) named.add(v.sha);
  }
  const blobs = new Map<string, Buffer>();
  if (input.localBlobs && named.size > 0) for (const [sha, bytes] of await input.localBlobs([...named])) blobs.set(sha, bytes);
  const rest = [...named].filter((sha) => !blobs.has(sha));
  if (rest.length > 0)
    for (const [sha, bytes] of await history.blobs(input.repository, rest, { maxBytes: input.maxBlobBytes, ...(input.installationId ? { installationId: input.installationId } : {}) }))
      blobs.set(sha, bytes);

  const files = new Map<string, { files: SourceCommitFile[]; complete: true }>();
  for (const c of wanted) {
    if (unusable.has(c.sha) || !c.counts) continue;
    const found = await changesBetween(before.get(c.sha) as Versions, after.get(c.sha) as Versions, c.counts, blobs);
    if (found) files.set(c.sha, { files: found, complete: true });
  }
  return { files, blobs };
}
