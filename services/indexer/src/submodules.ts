import type { SourceTree } from '@gitdex/ports';
import { readTree, type TreeReader } from './tree-walk';

/**
 * At most this many submodules are looked up per commit. Real repositories have a handful
 * (large monorepos a few hundred); a .gitmodules naming more is not worth one GitHub call each.
 */
export const MAX_SUBMODULES = 1000;
/** Longer `path =` values are ignored: no tree path is this long. */
const MAX_PATH_CHARS = 4096;

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0b || c === 0x0c;

/**
 * The value of a `path = value` line, or undefined for any other line. Plain index scanning,
 * no regular expression: .gitmodules is repository content, and a pattern that crosses lines
 * or backtracks lets a pushed file stall the indexer (ReDoS).
 */
function pathValue(line: string): string | undefined {
  let i = 0;
  while (i < line.length && isBlank(line.charCodeAt(i))) i += 1;
  // Keys are case-insensitive in git's config format.
  if (line.slice(i, i + 4).toLowerCase() !== 'path') return undefined;
  i += 4;
  while (i < line.length && isBlank(line.charCodeAt(i))) i += 1;
  if (line.charCodeAt(i) !== 0x3d /* = */) return undefined;
  let end = line.length;
  while (end > i + 1 && isBlank(line.charCodeAt(end - 1))) end -= 1;
  i += 1;
  while (i < end && isBlank(line.charCodeAt(i))) i += 1;
  let value = line.slice(i, end);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return value.length > 0 && value.length <= MAX_PATH_CHARS ? value : undefined;
}

/** Paths named in a .gitmodules file, each once, at most MAX_SUBMODULES of them. */
export function submodulePaths(gitmodules: string): string[] {
  const paths = new Set<string>();
  let start = 0;
  while (start <= gitmodules.length && paths.size < MAX_SUBMODULES) {
    const newline = gitmodules.indexOf('\n', start);
    const end = newline === -1 ? gitmodules.length : newline;
    const value = pathValue(gitmodules.slice(start, end));
    if (value !== undefined) paths.add(value);
    start = end + 1;
  }
  return [...paths];
}

/**
 * Tarballs leave submodules out, so their commits are found by walking the trees
 * down to each path named in .gitmodules. Each tree is read once per walk: submodules
 * share their parent folders, and a hostile file must not turn into one GitHub call per line.
 */
export async function findSubmodules(reader: TreeReader, rootTreeSha: string, gitmodules: string): Promise<{ path: string; sha: string }[]> {
  const found: { path: string; sha: string }[] = [];
  const trees = new Map<string, Promise<SourceTree>>();
  const treeOf = (sha: string) => {
    let tree = trees.get(sha);
    if (!tree) trees.set(sha, (tree = readTree(reader, sha, false)));
    return tree;
  };
  for (const path of submodulePaths(gitmodules)) {
    const parts = path.split('/');
    let treeSha: string | undefined = rootTreeSha;
    for (let i = 0; i < parts.length && treeSha; i += 1) {
      const tree = await treeOf(treeSha);
      const entry = tree.entries.find((e) => e.path === parts[i]);
      if (!entry) treeSha = undefined;
      else if (i === parts.length - 1) {
        if (entry.type === 'commit') found.push({ path, sha: entry.sha });
      } else treeSha = entry.type === 'tree' ? entry.sha : undefined;
    }
  }
  return found;
}
