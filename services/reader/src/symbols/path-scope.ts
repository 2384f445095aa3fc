import { compileGlobs, type PathMatcher } from '../search/globs';

/** A path argument as the symbol reads take it: a literal prefix the index filters on, and the globs the reader checks. */
export interface PathScope {
  /** Longest folder every matching path starts with ("src/" for "src/**\/*.ts"); undefined when none. */
  prefix: string | undefined;
  /** Null when every path is in scope. */
  matches: PathMatcher | null;
}

/**
 * The index filters symbol reads by a path prefix only; the globs themselves are checked here.
 * The prefix is the folders before a glob's first special character, and only when every glob
 * shares it (a glob without "/" matches at any depth, so it has none).
 */
export function pathScope(path: string | string[] | undefined): PathScope {
  const matches = compileGlobs(path, 'path');
  if (path === undefined) return { prefix: undefined, matches };
  const globs = (Array.isArray(path) ? path : [path]).map((g) => g.trim().replace(/^\.?\/+/, ''));
  const prefixes = globs.map(folderPrefix);
  const first = prefixes[0];
  const prefix = first !== undefined && first !== '' && prefixes.every((p) => p === first) ? first : undefined;
  return { prefix, matches };
}

function folderPrefix(glob: string): string {
  if (!glob.includes('/')) return '';
  const special = glob.search(/[*?[{\\]/);
  const literal = special === -1 ? glob : glob.slice(0, special);
  const slash = literal.lastIndexOf('/');
  return slash === -1 ? '' : literal.slice(0, slash + 1);
}
