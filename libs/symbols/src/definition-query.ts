/**
 * The packaged tags queries cut down to what extraction reads: their definition patterns, without
 * the reference patterns (calls, `new`, type annotations: they match far more nodes than the
 * definitions, and each match crosses from wasm into JavaScript to be thrown away) and without the
 * `(comment)* @doc .` prefixes and their `#strip!` / `#select-adjacent!` predicates (doc comments
 * are not stored, and each was a regular expression run in JavaScript per comment).
 */

/**
 * The top-level patterns of a query source, each with the captures and quantifiers after it.
 * Comments (`;` to the end of the line) are dropped; strings may hold brackets and `;`.
 */
export function splitPatterns(source: string): string[] {
  const patterns: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === ';') {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end - 1;
      continue;
    }
    if (char === '"') {
      let end = i + 1;
      while (end < source.length && source[end] !== '"') end += source[end] === '\\' ? 2 : 1;
      current += source.slice(i, end + 1);
      i = end;
      continue;
    }
    if ((char === '(' || char === '[') && depth === 0 && current.trim() !== '') {
      patterns.push(current.trim());
      current = '';
    }
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    if (depth < 0) throw new Error(`query source has an unbalanced "${char}" at offset ${i}`);
    current += char;
  }
  if (depth !== 0) throw new Error('query source ends inside a pattern');
  if (current.trim() !== '') patterns.push(current.trim());
  return patterns;
}

const DOC_PREFIX = /\(comment\)\*\s*@doc\s*\.\s*/g;
const DOC_PREDICATE = /\(#(?:strip!|select-adjacent!|set-adjacent!)\s+@doc\b[^)]*\)/g;

/** A tags query's definition patterns, each without its doc-comment capture. */
export function definitionPatterns(source: string): string {
  return splitPatterns(source)
    .filter((pattern) => pattern.includes('@definition.'))
    .map((pattern) => pattern.replace(DOC_PREFIX, '').replace(DOC_PREDICATE, ''))
    .join('\n');
}
