/**
 * Derived path fields, computed here rather than by engine analyzers so every index
 * adapter stores and matches exactly the same terms (the test Elasticsearch has no
 * analysis-common module, and SQLite has none of it either).
 */

/** Every folder above a path, root ('') first: "a/b/c.ts" → ['', 'a', 'a/b']. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/');
  const result = [''];
  for (let i = 1; i < parts.length; i += 1) result.push(parts.slice(0, i).join('/'));
  return result;
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Extension without the dot, lower-cased; '' when none ('.gitignore' has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function depthOf(path: string): number {
  if (path === '') return 0;
  let depth = 1;
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) depth += 1;
  return depth;
}

/**
 * Word tokens of a path, lower-cased, splitting folders, dots, snake_case, kebab-case
 * and camelCase so "src/HttpServer_v2.ts" and "src/http-server-v2.ts" share tokens.
 */
export function pathTokens(path: string): string[] {
  const words = path
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // A lookahead, not ([A-Z]+)([A-Z][a-z]): the greedy run backtracks over every capital at every start (quadratic on "AAAA…").
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)];
}

/** Letters and digits of a name only, lower-cased: the form in which case and separators do not count. */
export function squashed(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Trigrams of the squashed name (padded so short names still have some). */
export function trigramsOf(text: string): string[] {
  const padded = `^${squashed(text)}$`;
  const grams = new Set<string>();
  // Trigrams of code points; a name without surrogates (nearly all) has one unit a code point
  // and is sliced as it is, without an array of its characters (a catalogue takes the
  // trigrams of every name of a repository while it loads).
  const chars = /[\uD800-\uDFFF]/.test(padded) ? [...padded] : null;
  const length = chars === null ? padded.length : chars.length;
  for (let i = 0; i + 3 <= length; i += 1) grams.add(chars === null ? padded.slice(i, i + 3) : chars.slice(i, i + 3).join(''));
  if (length < 3) grams.add(padded);
  return [...grams];
}

/**
 * Code point order (= UTF-8 byte order = the index's keyword order). UTF-16 order differs only
 * where a surrogate (U+D800–DFFF) meets U+E000–FFFF: those are moved into code point order.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
