import type { Row } from './model';
import { barChart, cdfChart, type BarGroup } from './svg';

export interface Chart {
  file: string;
  title: string;
  svg: string;
}

const latencyRows = (rows: Row[], suite: string) => rows.filter((r) => r.suite === suite && r.value.unit === 'ms');

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** CDF of each row's samples, and of each distinct baseline sample set once. */
function cdfOf(rows: Row[], title: string, file: string): Chart | null {
  if (rows.length === 0) return null;
  const series = rows.map((r) => ({ label: shorten(`${r.backend}: ${r.case}`, 90), samples: r.value.samples }));
  const seen = new Set<string>();
  for (const r of rows) {
    if (!r.baseline || r.baseline.unit !== 'ms') continue;
    const b = r.baseline.summary;
    const key = `${r.backend} ${r.baseline.label} ${b.n} ${b.min} ${b.median} ${b.p99} ${b.max} ${b.mean}`;
    if (seen.has(key)) continue;
    seen.add(key);
    series.push({ label: shorten(`baseline ${r.backend}: ${r.baseline.label} (for ${r.case})`, 90), samples: r.baseline.samples });
  }
  return { file, title, svg: cdfChart({ title, unit: 'ms', series, width: 960, height: 300 + 16 * series.length }) };
}

/** Medians as bars with p99 whiskers: a bar per backend/contender, a group per case. */
function barsOf(rows: Row[], title: string, file: string, unit: string, withBaseline = true): Chart | null {
  if (rows.length === 0) return null;
  const groups = new Map<string, BarGroup>();
  for (const r of rows) {
    const group = groups.get(r.case) ?? { label: r.case, bars: [] };
    group.bars.push({ label: `gitdex ${r.backend}`, value: r.value.summary.median, whisker: r.value.summary.p99 });
    if (withBaseline && r.baseline && r.baseline.unit === r.value.unit)
      group.bars.push({ label: `baseline ${r.backend}: ${r.baseline.label}`, value: r.baseline.summary.median, whisker: r.baseline.summary.p99 });
    groups.set(r.case, group);
  }
  return { file, title, svg: barChart({ title, unit, groups: [...groups.values()], width: Math.max(760, 140 * groups.size) }) };
}

/** The charts of a run: freshness and latency distributions, throughput bars. */
export function chartsFor(rows: Row[]): Chart[] {
  const charts = [
    cdfOf(latencyRows(rows, 'freshness'), 'Freshness: push webhook sent → new content readable (CDF)', 'freshness-cdf.svg'),
    cdfOf(latencyRows(rows, 'reads'), 'Reads over MCP stdio: gitdex vs @modelcontextprotocol/server-filesystem (CDF)', 'reads-cdf.svg'),
    barsOf(latencyRows(rows, 'reads'), 'Reads over MCP stdio: median (bar) and p99 (whisker)', 'reads-bars.svg', 'ms'),
    cdfOf(latencyRows(rows, 'reads-load'), 'Reads under load (Streamable HTTP): latency per concurrency (CDF)', 'reads-load-cdf.svg'),
    barsOf(
      rows.filter((r) => r.suite === 'reads-load' && r.value.unit === 'calls/s'),
      'Reads under load: throughput',
      'reads-load-throughput.svg',
      'calls/s',
      false,
    ),
    cdfOf(latencyRows(rows, 'suggest'), 'suggest_paths latency: gitdex over MCP vs fuse.js in process (CDF)', 'suggest-cdf.svg'),
    barsOf(
      rows.filter((r) => r.suite === 'indexing' && r.value.unit === 'files/s'),
      'Full index throughput: gitdex pipeline vs raw bulk of the same documents',
      'indexing-throughput.svg',
      'files/s',
    ),
    cdfOf(latencyRows(rows, 'indexing'), 'One-file push: large vs small repository (CDF)', 'indexing-one-file-cdf.svg'),
  ];
  return charts.filter((c): c is Chart => c !== null);
}
