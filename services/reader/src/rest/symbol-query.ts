import { listParam, queryArgs } from './query';

/**
 * find_symbol and find_references arguments from a query string: name as q or name,
 * repositories as a list (?repositories=a&repositories=b or a,b), path repeated for several
 * globs (a glob may hold a comma: {a,b}).
 */
export function symbolArgs(query: Record<string, unknown>): Record<string, unknown> {
  const { repositories, path, ...rest } = query;
  const args = queryArgs(rest, { q: 'name' });
  const names = listParam(repositories);
  if (names !== undefined) args.repositories = names;
  if (path !== undefined) args.path = Array.isArray(path) ? path.map(String) : String(path);
  return args;
}
