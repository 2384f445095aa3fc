/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions, each substring
 * edited once) over UTF-16 units: the distance the reader's "did you mean" ranks with
 * (services/reader/src/suggest/distance.ts), so the index drops exactly the candidates the reader
 * would, before paying a visibility check for each. Names are short: the quadratic table is cheap.
 */
export function osaDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let row = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i += 1) {
    row[0] = i;
    for (let j = 1; j <= m; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) best = Math.min(best, (prev2[j - 2] as number) + 1);
      row[j] = best;
    }
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[m] as number;
}
