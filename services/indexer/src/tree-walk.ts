import type { Source, SourceRepository, TreeEntry } from '@gitdex/ports';
import { mapLimit } from './concurrency';

/** A file-level entry of a tree: a blob (file or symlink) or a commit (submodule). */
export type LeafEntry = TreeEntry & { type: 'blob' | 'commit' };

export interface TreeReader {
  source: Source;
  repository: SourceRepository;
  installationId?: number;
  /** Counts the trees fetched, so tests and metrics can see what a push cost. */
  fetched?: { trees: number };
}

export async function readTree(reader: TreeReader, sha: string, recursive: boolean) {
  if (reader.fetched) reader.fetched.trees += 1;
  return reader.source.tree(reader.repository, sha, { recursive, ...(reader.installationId ? { installationId: reader.installationId } : {}) });
}

const isLeaf = (entry: TreeEntry): entry is LeafEntry => entry.type !== 'tree';
const under = (prefix: string, path: string) => (prefix ? `${prefix}/${path}` : path);

/**
 * Every leaf below a tree, with full paths. Uses one recursive listing; when GitHub
 * truncates it (100,000 entries / 7 MB), walks the subtrees one level at a time.
 */
export async function listLeaves(reader: TreeReader, treeSha: string, prefix: string): Promise<LeafEntry[]> {
  const tree = await readTree(reader, treeSha, true);
  if (!tree.truncated) return tree.entries.filter(isLeaf).map((e) => ({ ...e, path: under(prefix, e.path) }));
  return walkLevels(reader, treeSha, prefix);
}

async function walkLevels(reader: TreeReader, treeSha: string, prefix: string): Promise<LeafEntry[]> {
  const tree = await readTree(reader, treeSha, false);
  const leaves = tree.entries.filter(isLeaf).map((e) => ({ ...e, path: under(prefix, e.path) }));
  const subtrees = tree.entries.filter((e) => e.type === 'tree');
  const nested = await mapLimit(subtrees, 4, (sub) => walkLevels(reader, sub.sha, under(prefix, sub.path)));
  return leaves.concat(...nested);
}
