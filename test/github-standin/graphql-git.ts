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

/** The bytes of each blob (non-blobs and unknown shas are absent). */
export async function readBlobs(dir: string, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const unique = [...new Set(shas.filter(isHexSha))];
  if (unique.length === 0) return blobs;
  const out = await git(dir, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` });
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [sha = '', type = '', size = ''] = out.subarray(at, eol).toString('utf8').split(' ');
    if (type === 'missing' || size === '') {
      at = eol + 1;
      continue;
    }
    const bytes = Number(size);
    if (type === 'blob') blobs.set(sha, out.subarray(eol + 1, eol + 1 + bytes));
    at = eol + 1 + bytes + 1;
  }
  return blobs;
}

/** The commit a full sha names, or null (GitHub's object(oid:) takes full object ids only). */
export async function commitOid(dir: string, oid: string): Promise<string | null> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  const result = await runGit(dir, ['cat-file', '-t', oid]);
  return result.code === 0 && result.stdout.toString('utf8').trim() === 'commit' ? oid : null;
}
