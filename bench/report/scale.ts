import { figure, row, type Figure, type Results, type Row } from './model';

/** More samples than any row of a full run holds (its load levels merge ~14,000 each, its CDFs ~100,000). */
export const REPORT_CHECK_SAMPLES = 200_000;

/** The samples repeated whole until there are at least `atLeast`: the same distribution (median, p99), more of it. */
function repeated(f: Figure, atLeast: number): Figure {
  if (f.samples.length === 0) return f;
  const times = Math.ceil(atLeast / f.samples.length);
  const samples: number[] = [];
  for (let t = 0; t < times; t += 1) for (const v of f.samples) samples.push(v);
  return figure(f.label, f.unit, samples);
}

/**
 * A copy of the results whose every figure holds at least `atLeast` samples: lets a quick
 * run (CI) exercise the report at a full run's sample counts, where spreading samples into
 * function arguments once crashed it.
 */
export function withSamplesRepeated(results: Results, atLeast: number): Results {
  const rows: Row[] = results.rows.map((r) => row({ ...r, value: repeated(r.value, atLeast), ...(r.baseline ? { baseline: repeated(r.baseline, atLeast) } : {}) }));
  return { ...results, rows, notes: [...results.notes, `report check: every sample set repeated to at least ${atLeast.toLocaleString('en-US')} samples (not measurements)`] };
}
