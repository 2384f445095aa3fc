import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartsFor } from './charts';
import { writeJson } from './json';
import { renderMarkdown } from './markdown';
import type { Results } from './model';

/** Writes results.json, results.md and the SVG charts into `dir`; answers the files written. */
export function writeResults(dir: string, results: Results): string[] {
  mkdirSync(dir, { recursive: true });
  const charts = chartsFor(results.rows);
  results.charts = charts.map((c) => ({ file: c.file, title: c.title }));
  const files: string[] = [];
  for (const chart of charts) {
    writeFileSync(join(dir, chart.file), chart.svg);
    files.push(join(dir, chart.file));
  }
  writeJson(join(dir, 'results.json'), results);
  writeFileSync(join(dir, 'results.md'), renderMarkdown(results));
  files.push(join(dir, 'results.json'), join(dir, 'results.md'));
  return files;
}
