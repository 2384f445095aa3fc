import type { TreeEntry } from '@gitdex/ports';
import { mapLimit } from './concurrency';
import { listLeaves, readTree, type LeafEntry, type TreeReader } from './tree-walk';

export type TreeChange = { type: 'upsert'; entry: LeafEntry } | { type: 'delete'; path: string };

/** Thrown when a diff grows past the point where one tarball is cheaper. */
export class DiffTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} changed entries`);
  }
}

/**
 * What changed between two trees. Git trees are content-addressed, so a subtree with
 * the same sha is skipped whole: the cost grows with what changed, not with the
 * repository.
 */
export async function diffTrees(reader: TreeReader, oldTreeSha: string, newTreeSha: string, maxChanges: number): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  const add = (more: TreeChange[]) => {
    changes.push(...more);
    if (changes.length > maxChanges) throw new DiffTooLarge(maxChanges);
  };
  await walk(reader, oldTreeSha, newTreeSha, '', add);
  return changes;
}

/**
 * The same, from the two recursive listings: two requests whatever changed, for a change known to
 * be wide (compare listed 300 files or more), where walking would read two trees a changed folder.
 * Null when GitHub truncates either listing (the walk then decides).
 */
export async function diffWholeTrees(reader: TreeReader, oldTreeSha: string, newTreeSha: string, maxChanges: number): Promise<TreeChange[] | null> {
  const [oldTree, newTree] = await Promise.all([readTree(reader, oldTreeSha, true), readTree(reader, newTreeSha, true)]);
  if (oldTree.truncated || newTree.truncated) return null;
  const leaves = (entries: TreeEntry[]) => new Map(entries.flatMap((e) => (e.type === 'tree' ? [] : [[e.path, { ...e, type: e.type }] as const])));
  const before = leaves(oldTree.entries);
  const after = leaves(newTree.entries);
  const changes: TreeChange[] = [];
  for (const path of before.keys()) if (!after.has(path)) changes.push({ type: 'delete', path });
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old || old.sha !== entry.sha || old.mode !== entry.mode) changes.push({ type: 'upsert', entry });
  }
  if (changes.length > maxChanges) throw new DiffTooLarge(maxChanges);
  return changes;
}

async function walk(reader: TreeReader, oldSha: string, newSha: string, prefix: string, add: (changes: TreeChange[]) => void): Promise<void> {
  if (oldSha === newSha) return;
  const [oldTree, newTree] = await Promise.all([readTree(reader, oldSha, false), readTree(reader, newSha, false)]);
  const before = new Map(oldTree.entries.map((e) => [e.path, e]));
  const after = new Map(newTree.entries.map((e) => [e.path, e]));
  const path = (name: string) => (prefix ? `${prefix}/${name}` : name);
  const descents: [string, string, string][] = [];

  for (const [name, old] of before) {
    const current = after.get(name);
    if (current && current.sha === old.sha && current.mode === old.mode) continue;
    if (current && old.type === 'tree' && current.type === 'tree') {
      descents.push([old.sha, current.sha, path(name)]);
      continue;
    }
    if (old.type === 'tree') add((await listLeaves(reader, old.sha, path(name))).map((leaf) => ({ type: 'delete', path: leaf.path })));
    else if (!current || current.type === 'tree') add([{ type: 'delete', path: path(name) }]);
    if (current) await addNew(reader, current, path(name), add);
  }
  for (const [name, current] of after) {
    if (!before.has(name)) await addNew(reader, current, path(name), add);
  }
  await mapLimit(descents, 4, ([o, n, p]) => walk(reader, o, n, p, add));
}

async function addNew(reader: TreeReader, entry: TreeEntry, path: string, add: (changes: TreeChange[]) => void): Promise<void> {
  if (entry.type === 'tree') {
    add((await listLeaves(reader, entry.sha, path)).map((leaf) => ({ type: 'upsert', entry: leaf })));
  } else {
    add([{ type: 'upsert', entry: { ...entry, type: entry.type, path } }]);
  }
}
