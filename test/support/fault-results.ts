// Results of the fault suite: one row per injected fault, written to test-artifacts/faults/
// (git-ignored). Each test file writes its own part (parts/<file>.json), then rebuilds
// results.json from every part, so files running in parallel or on their own never lose rows.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESULTS_DIR = join(__dirname, '../../test-artifacts/faults');

export interface FaultResult {
  /** e.g. "Kafka broker restart (SIGKILL)". */
  fault: string;
  /** The test file that injected it. */
  file: string;
  /** How many times the fault was injected in this run. */
  injections: number;
  /** Push deliveries the stand-in sent while the stream ran (first attempts). */
  deliveries: number;
  /** Of those, how many the webhook answered 202 at the first attempt. */
  acknowledged: number;
  /** First attempts without a 202 (connection refused, 503, reset): redelivered afterwards. */
  refused: number;
  /** Redeliveries that got a 202. */
  redelivered: number;
  /** Acknowledged deliveries missing from Kafka or not reflected in the index: must be 0. */
  lost: number;
  /** Dead letters written during the run of this fault. */
  deadLettered: number;
  /** How long the fault lasted (injection to its end), in seconds. */
  faultSeconds: number;
  /** Fault end until every repository's index equals GitHub (null: it did not). */
  recoverySeconds: number | null;
  notes: string;
  at: string;
}

function partPath(file: string): string {
  return join(RESULTS_DIR, 'parts', `${file.replace(/[^a-z0-9.-]+/gi, '_')}.json`);
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** Collects a test file's rows; save() writes them and rebuilds results.json. */
export class FaultResults {
  readonly rows: FaultResult[] = [];

  constructor(private readonly file: string) {}

  add(row: Omit<FaultResult, 'file' | 'at'>): FaultResult {
    const full = { ...row, file: this.file, at: new Date().toISOString() };
    this.rows.push(full);
    this.save();
    return full;
  }

  save(): void {
    mkdirSync(join(RESULTS_DIR, 'parts'), { recursive: true });
    writeAtomically(partPath(this.file), `${JSON.stringify(this.rows, null, 2)}\n`);
    const all = readAllParts();
    writeAtomically(join(RESULTS_DIR, 'results.json'), `${JSON.stringify({ generatedAt: new Date().toISOString(), results: all }, null, 2)}\n`);
  }

  /** Prints this file's rows, then every row of results.json, as tables. */
  print(): void {
    const all = readAllParts();
    process.stdout.write(`\nFault results of ${this.file}:\n${formatTable(this.rows)}\n\nAll fault results (${join(RESULTS_DIR, 'results.json')}):\n${formatTable(all)}\n`);
  }
}

export function readAllParts(): FaultResult[] {
  const dir = join(RESULTS_DIR, 'parts');
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as FaultResult[];
    } catch {
      return [];
    }
  });
}

export function formatTable(rows: FaultResult[]): string {
  const header = ['fault', 'tries', 'deliveries', 'acked', 'refused', 'redelivered', 'lost', 'dead letters', 'fault s', 'recovery s'];
  const body = rows.map((r) => [
    r.fault,
    String(r.injections),
    String(r.deliveries),
    String(r.acknowledged),
    String(r.refused),
    String(r.redelivered),
    String(r.lost),
    String(r.deadLettered),
    r.faultSeconds.toFixed(1),
    r.recoverySeconds === null ? 'NOT RECOVERED' : r.recoverySeconds.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}
