import { readTree, type TreeReader } from './tree-walk';

/** Paths named in a .gitmodules file. */
export function submodulePaths(gitmodules: string): string[] {
  return [...gitmodules.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((m) => m[1]!.replace(/^"|"$/g, ''));
}

/**
 * Tarballs leave submodules out, so their commits are found by walking the trees
 * down to each path named in .gitmodules (a few small tree reads each).
 */
export async function findSubmodules(reader: TreeReader, rootTreeSha: string, gitmodules: string): Promise<{ path: string; sha: string }[]> {
  const found: { path: string; sha: string }[] = [];
  for (const path of submodulePaths(gitmodules)) {
    const parts = path.split('/');
    let treeSha: string | undefined = rootTreeSha;
    for (let i = 0; i < parts.length && treeSha; i += 1) {
      const tree = await readTree(reader, treeSha, false);
      const entry = tree.entries.find((e) => e.path === parts[i]);
      if (!entry) treeSha = undefined;
      else if (i === parts.length - 1) {
        if (entry.type === 'commit') found.push({ path, sha: entry.sha });
      } else treeSha = entry.type === 'tree' ? entry.sha : undefined;
    }
  }
  return found;
}
