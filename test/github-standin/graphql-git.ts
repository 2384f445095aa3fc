// Batched git reads for the GraphQL route: one ls-tree for every path a query names and one
// cat-file --batch for every blob, so a query of 300 files costs two git processes, not 600.
import { git, isHexSha, runGit, splitNul } from './git';

export interface PathEntry {
  path: string;
  /** Octal, as git prints it ("100644"). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number;
}

/** The entries at `paths` in a commit's tree (missing paths are absent from the map). */
export async function entriesAt(dir: string, commit: string, paths: readonly string[]): Promise<Map<string, PathEntry>> {
  const found = new Map<string, PathEntry>();
  if (paths.length === 0 || !isHexSha(commit)) return found;
  // --literal-pathspecs: a path is a name, never a glob; -l gives blob sizes.
  const result = await runGit(dir, ['--literal-pathspecs', 'ls-tree', '-z', '-l', '--full-tree', commit, '--', ...paths]);
  if (result.code !== 0) return found;
  const wanted = new Set(paths);
  for (const record of splitNul(result.stdout)) {
    const tab = record.indexOf('\t');
    const [mode = '', type = 'blob', sha = '', size = '-'] = record.slice(0, tab).split(/ +/);
    const path = record.slice(tab + 1);
    if (wanted.has(path)) found.set(path, { path, mode, type: type as PathEntry['type'], sha, size: size === '-' ? 0 : Number(size) });
  }
  return found;
}

/** Each object git knows among `shas`, with its type and bytes: one `cat-file --batch` for all of them. */
async function catFileBatch(dir: string, shas: readonly string[]): Promise<{ sha: string; type: string; bytes: Buffer }[]> {
  const unique = [...new Set(shas.filter(isHexSha))];
  if (unique.length === 0) return [];
  const out = await git(dir, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
  const objects: { sha: string; type: string; bytes: Buffer }[] = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [sha = '', type = '', size = ''] = out.subarray(at, eol).toString('utf8').split(' ');
    if (type === 'missing' || size === '') {
      at = eol + 1;
      continue;
    }
    const end = eol + 1 + Number(size);
    objects.push({ sha, type, bytes: out.subarray(eol + 1, end) });
    at = end + 1;
  }
  return objects;
}

/** The bytes of each blob (non-blobs and unknown shas are absent). */
export async function readBlobs(dir: string, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  for (const { sha, type, bytes } of await catFileBatch(dir, shas)) if (type === 'blob') blobs.set(sha, bytes);
  return blobs;
}

export interface TreeItem {
  name: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

/** The entries of each tree, one `cat-file --batch` for all of them (git's binary tree format read here). */
export async function readTrees(dir: string, shas: readonly string[]): Promise<Map<string, TreeItem[]>> {
  const trees = new Map<string, TreeItem[]>();
  for (const { sha, type, bytes } of await catFileBatch(dir, shas)) {
    if (type !== 'tree') continue;
    const items: TreeItem[] = [];
    let p = 0;
    while (p < bytes.length) {
      const space = bytes.indexOf(0x20, p);
      const nul = bytes.indexOf(0, space);
      const mode = bytes.subarray(p, space).toString('utf8').padStart(6, '0');
      const name = bytes.subarray(space + 1, nul).toString('utf8');
      const oid = bytes.subarray(nul + 1, nul + 21).toString('hex');
      items.push({ name, mode, type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob', sha: oid });
      p = nul + 21;
    }
    trees.set(sha, items);
  }
  return trees;
}

/** The type and size of each object, one `cat-file --batch-check` for all of them (unknown ids left out). */
export async function objectTypes(dir: string, shas: readonly string[]): Promise<Map<string, { type: string; size: number }>> {
  const types = new Map<string, { type: string; size: number }>();
  const unique = [...new Set(shas.filter(isHexSha))];
  if (unique.length === 0) return types;
  const out = (await git(dir, ['cat-file', '--batch-check'], { input: `${unique.join('\n')}\n` })).toString('utf8');
  for (const line of out.split('\n')) {
    const [sha = '', type = '', size = ''] = line.split(' ');
    if (type !== '' && type !== 'missing' && size !== '') types.set(sha, { type, size: Number(size) });
  }
  return types;
}
