/**
 * Edit distances for "did you mean" (paths, and symbol names in the reader and the SQLite index,
 * which must rank alike): optimal string alignment (Damerau-Levenshtein
 * with adjacent transpositions, each substring edited once), computed over one matrix
 * that also yields the distance to the best prefix of the target, for as-you-type
 * queries with a typo. Inputs are short (file and symbol names), so the quadratic table is cheap.
 */

export interface Distances {
  /** Edits from query to the whole target. */
  full: number;
  /** Edits from query to the closest prefix of the target. */
  prefix: number;
  /** Length of the prefix of the target that `prefix` is measured to (the longest among ties). */
  prefixLength: number;
}

/** Local aliases: a global lookup per call is slow inside vm contexts (jest), and this is the hot loop. */
const { min, max } = Math;
const Int32 = Int32Array;

const rowsCache: Int32Array[] = [];

function row(index: number, size: number): Int32Array {
  let buffer = rowsCache[index];
  if (!buffer || buffer.length < size) {
    buffer = new Int32(max(size, 64));
    rowsCache[index] = buffer;
  }
  return buffer;
}

/** Distances from `a` (the query) to `b` (a candidate). */
export function editDistances(a: string, b: string): Distances {
  const n = a.length;
  const m = b.length;
  if (n === 0) return { full: m, prefix: 0, prefixLength: 0 };
  if (m === 0) return { full: n, prefix: n, prefixLength: 0 };
  const width = m + 1;
  let prev2 = row(0, width);
  let prev = row(1, width);
  let current = row(2, width);
  for (let j = 0; j <= m; j += 1) prev[j] = j;
  for (let i = 1; i <= n; i += 1) {
    current[0] = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j += 1) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = min((prev[j] as number) + 1, (current[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = min(value, (prev2[j - 2] as number) + 1);
      }
      current[j] = value;
    }
    const spare = prev2;
    prev2 = prev;
    prev = current;
    current = spare;
  }
  let prefix = prev[0] as number;
  let prefixLength = 0;
  for (let j = 1; j <= m; j += 1) {
    const value = prev[j] as number;
    if (value <= prefix) {
      prefix = value;
      prefixLength = j;
    }
  }
  return { full: prev[m] as number, prefix, prefixLength };
}

/** Plain optimal-string-alignment distance. */
export function editDistance(a: string, b: string): number {
  return editDistances(a, b).full;
}
