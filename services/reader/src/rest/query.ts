import { invalid } from '../tool-error';

/** Query parameters that are whole numbers in the tool inputs. */
const NUMBERS = new Set(['depth', 'limit', 'start_line', 'end_line', 'context_lines', 'offset', 'max_bytes', 'wait_ms']);

/**
 * Tool arguments from a query string: numbers parsed, a parameter given twice refused,
 * parameters starting with "_" (cache busters) ignored. The tool's own schema judges the rest.
 */
export function queryArgs(query: Record<string, unknown>, rename: Record<string, string> = {}): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith('_')) continue;
    if (Array.isArray(value) || (typeof value === 'object' && value !== null)) throw invalid(`${key}: give it once, as plain text`);
    const name = rename[key] ?? key;
    args[name] = NUMBERS.has(name) && typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  }
  return args;
}

/** A list parameter given as ?x=a&x=b or ?x=a,b. */
export function listParam(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((item) => String(item).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

const BOOLEANS = new Set(['regex', 'case_sensitive', 'include_generated']);

/**
 * search_code arguments from a query string: q or query; repositories as a list (?repositories=a&repositories=b
 * or a,b), refs, path and exclude repeated for several; true/false for the switches.
 */
export function searchArgs(query: Record<string, unknown>): Record<string, unknown> {
  const { repositories, refs, path, exclude, ...rest } = query;
  const args = queryArgs(rest, { q: 'query' });
  for (const [name, value] of Object.entries(args)) {
    if (BOOLEANS.has(name) && typeof value === 'string' && /^(true|false)$/i.test(value.trim())) args[name] = value.trim().toLowerCase() === 'true';
  }
  // Globs (and ref names) may hold commas ({a,b}): several come as repeated parameters only.
  const globs = (value: unknown) => (value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map(String));
  const lists = { repositories: listParam(repositories), refs: globs(refs), path: globs(path), exclude: globs(exclude) };
  for (const [name, value] of Object.entries(lists)) if (value !== undefined) args[name] = value;
  return args;
}
