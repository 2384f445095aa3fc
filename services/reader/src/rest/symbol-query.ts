import { invalid } from '../tool-error';
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
  // Express gives a string, or a list when repeated; queryArgs refuses objects for the rest.
  if (typeof path === 'string') args.path = path;
  else if (Array.isArray(path)) args.path = path.filter((p): p is string => typeof p === 'string');
  else if (path !== undefined) throw invalid('path: give a glob as plain text (repeat path= for several)');
  return args;
}
