import { ratio, summarize, type Summary } from '../measure/stats';

/** One measured quantity: repeated samples in one unit, summarized. */
export interface Figure {
  label: string;
  unit: string;
  summary: Summary;
  /** Raw samples, for the distribution charts. */
  samples: number[];
}

/** One line of the results table: a figure beside the baseline measured in the same run. */
export interface Row {
  suite: string;
  backend: string;
  case: string;
  value: Figure;
  baseline?: Figure | undefined;
  /** value / baseline, of the medians and of the p99s. */
  ratio?: { median: number | null; p99: number | null };
  target?: { text: string; met: boolean | null } | undefined;
  note?: string | undefined;
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memGb: number;
  node: string;
  platform: string;
  loadBefore: number[];
  loadAfter?: number[];
}

export interface Results {
  mode: 'quick' | 'full';
  startedAt: string;
  finishedAt?: string;
  durationSeconds?: number;
  machine: Machine;
  /** What the data was (repositories, files, bytes). */
  data: { name: string; files: number; bytes: number; description: string }[];
  rows: Row[];
  /** Where the time goes, per suite: lines of prose/numbers. */
  profiles: { title: string; lines: string[] }[];
  charts: { file: string; title: string }[];
  notes: string[];
  failures: string[];
}

export function figure(label: string, unit: string, samples: number[]): Figure {
  return { label, unit, summary: summarize(samples), samples: [...samples] };
}

export function row(fields: { suite: string; backend: string; case: string; value: Figure; baseline?: Figure | undefined; target?: Row['target']; note?: string | undefined }): Row {
  const out: Row = { ...fields };
  if (fields.baseline) {
    out.ratio = {
      median: ratio(fields.value.summary.median, fields.baseline.summary.median),
      p99: ratio(fields.value.summary.p99, fields.baseline.summary.p99),
    };
  }
  return out;
}

/** A target on the value's median and/or p99 (upper bounds), checked now. */
export function upperTarget(value: Figure, bounds: { median?: number; p99?: number }, text: string): Row['target'] {
  const checks: boolean[] = [];
  if (bounds.median !== undefined) checks.push(value.summary.median <= bounds.median);
  if (bounds.p99 !== undefined) checks.push(value.summary.p99 <= bounds.p99);
  return { text, met: checks.length === 0 || value.summary.n === 0 ? null : checks.every(Boolean) };
}
