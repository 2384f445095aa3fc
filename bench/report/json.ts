import { closeSync, openSync, writeSync } from 'node:fs';
import type { Results } from './model';

const finite = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value);
const ROWS = '"rows": []';

/**
 * results.json: everything, with raw samples (non-finite numbers become null), one row a line.
 * Written row by row, so its size never meets the longest string V8 can build: the report
 * check's rows of 200,000 samples each made one JSON string of more than that.
 */
export function writeJson(file: string, results: Results): void {
  const { rows, ...rest } = results;
  const head = JSON.stringify({ ...rest, rows: [] }, finite, 2);
  const at = head.lastIndexOf(ROWS);
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, `${head.slice(0, at)}"rows": [`);
    rows.forEach((row, i) => writeSync(fd, `${i === 0 ? '' : ','}\n    ${JSON.stringify(row, finite)}`));
    writeSync(fd, `${rows.length > 0 ? '\n  ' : ''}]${head.slice(at + ROWS.length)}\n`);
  } finally {
    closeSync(fd);
  }
}
