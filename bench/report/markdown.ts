import { cell, formatNumber, formatRatio } from './format';
import type { Results, Row } from './model';

function target(row: Row): string {
  if (!row.target) return '';
  const verdict = row.target.met === null ? '' : row.target.met ? ' ✅' : ' ❌';
  return `${row.target.text}${verdict}`;
}

function valueCell(row: Row, key: 'median' | 'p99'): string {
  return formatNumber(row.value.summary[key], row.value.unit);
}

function baselineCell(row: Row): string {
  if (!row.baseline) return '';
  const b = row.baseline;
  return `${b.label}: ${formatNumber(b.summary.median, b.unit)} / ${formatNumber(b.summary.p99, b.unit)}`;
}

/** The results table: one line per row, grouped by suite in the order the rows came. */
export function resultsTable(rows: Row[]): string {
  const header = '| suite | backend | case | n | median | p99 | baseline (median / p99) | ratio median | ratio p99 | target |\n|---|---|---|--:|--:|--:|---|--:|--:|---|';
  const lines = rows.map(
    (r) =>
      `| ${[
        r.suite,
        r.backend,
        r.case + (r.note ? ` (${r.note})` : ''),
        String(r.value.summary.n),
        valueCell(r, 'median'),
        valueCell(r, 'p99'),
        baselineCell(r),
        formatRatio(r.ratio?.median),
        formatRatio(r.ratio?.p99),
        target(r),
      ]
        .map(cell)
        .join(' | ')} |`,
  );
  return [header, ...lines].join('\n');
}

export function machineLine(results: Results): string {
  const m = results.machine;
  return `${m.cpus} cores (${m.cpuModel}), ${m.memGb} GB, Node ${m.node}, ${m.platform}; load average before ${m.loadBefore.map((l) => l.toFixed(2)).join('/')}${m.loadAfter ? `, after ${m.loadAfter.map((l) => l.toFixed(2)).join('/')}` : ''}`;
}

export function renderMarkdown(results: Results): string {
  const out: string[] = [];
  out.push(`# gitdex benchmark results (${results.mode})`, '');
  out.push(`- date: ${results.startedAt}${results.durationSeconds !== undefined ? ` (took ${Math.round(results.durationSeconds)} s)` : ''}`);
  out.push(`- machine: ${machineLine(results)}`);
  out.push('- every figure: median and p99 (nearest rank) over the repeats (n), beside a baseline measured in the same run; ratio = figure / baseline', '');
  out.push('## Data', '', '| repository | files | MB | what |', '|---|--:|--:|---|');
  for (const d of results.data) out.push(`| ${cell(d.name)} | ${d.files.toLocaleString('en-US')} | ${(d.bytes / 1e6).toFixed(1)} | ${cell(d.description)} |`);
  out.push('', '## Results', '', resultsTable(results.rows), '');
  if (results.profiles.length > 0) {
    out.push('## Where the time goes', '');
    for (const p of results.profiles) {
      out.push(`### ${p.title}`, '', ...p.lines.map((l) => `- ${l}`), '');
    }
  }
  if (results.charts.length > 0) {
    out.push('## Charts', '');
    for (const c of results.charts) out.push(`- [${c.title}](${c.file})`);
    out.push('');
  }
  if (results.notes.length > 0) out.push('## Notes', '', ...results.notes.map((n) => `- ${n}`), '');
  if (results.failures.length > 0) out.push('## Failures', '', ...results.failures.map((f) => `- ${f}`), '');
  return out.join('\n');
}
