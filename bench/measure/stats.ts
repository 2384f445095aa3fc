/**
 * Order statistics of repeated measurements. Percentiles use the nearest-rank method
 * (the smallest sample with at least p of the samples at or below it), so a p99 is
 * always a value that was measured; the median averages the two middle samples.
 */

export interface Summary {
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** The values in ascending order, as a typed array: its native numeric sort is many times faster than a comparator's on a million samples. */
function sorted(values: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(values);
  for (const v of out) if (!Number.isFinite(v)) throw new RangeError('stats: every sample must be a finite number');
  return out.sort();
}

/** Nearest-rank percentile, p in [0, 1]. NaN when there are no samples. */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentile: p must be within [0, 1], got ${p}`);
  const s = sorted(values);
  if (s.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(p * s.length));
  return s[rank - 1] as number;
}

export function median(values: ArrayLike<number>): number {
  const s = sorted(values);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function p99(values: ArrayLike<number>): number {
  return percentile(values, 0.99);
}

export function summarize(values: ArrayLike<number>): Summary {
  const s = sorted(values);
  if (s.length === 0) return { n: 0, median: Number.NaN, p99: Number.NaN, min: Number.NaN, max: Number.NaN, mean: Number.NaN };
  return {
    n: s.length,
    median: median(s),
    p99: percentile(s, 0.99),
    min: s[0] as number,
    max: s[s.length - 1] as number,
    mean: s.reduce((sum, v) => sum + v, 0) / s.length,
  };
}

/** a / b; null when either is missing or b is zero (a ratio to nothing is not a number to print). */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

/**
 * Smallest and largest of the values, by a loop: spreading a sample array into
 * Math.min/Math.max puts every sample on the stack and throws a RangeError past ~100,000
 * (a full run's load suite has more). NaN for no values.
 */
export function extent(values: ArrayLike<number>): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return values.length === 0 ? { min: Number.NaN, max: Number.NaN } : { min, max };
}

/** Fraction of the samples at or below x: one point of an empirical CDF. */
export function fractionAtOrBelow(values: readonly number[], x: number): number {
  if (values.length === 0) return Number.NaN;
  return values.filter((v) => v <= x).length / values.length;
}
