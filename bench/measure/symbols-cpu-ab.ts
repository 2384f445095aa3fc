/**
 * Extraction CPU of two builds of @gitdex/symbols in one process, file by file interleaved (the
 * order flipped every file), so that a shared machine's load falls on both alike: gitdex's own
 * sources and every held-out and tuning set of bench/symbols-quality, definitions only (as the
 * indexer extracts). Also checks the two builds' output is the same for every file.
 *
 *   npx tsx --tsconfig bench/tsconfig.json bench/measure/symbols-cpu-ab.ts BASELINE_DIST/index.js [passes]
 */
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import * as current from '@gitdex/symbols';
import { corpusFiles } from './symbols-corpus';

type Lib = typeof current;
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

async function main(): Promise<void> {
  const baselinePath = process.argv[2];
  if (!baselinePath) throw new Error('usage: symbols-cpu-ab.ts BASELINE_DIST/index.js [passes]');
  const passes = Number(process.argv[3] ?? 3);
  const baseline = createRequire(__filename)(baselinePath) as Lib;
  const files = corpusFiles();
  const limits = { maxBytes: current.DEFAULT_MAX_BYTES, timeoutMs: current.DEFAULT_TIMEOUT_MS };
  const libs: Array<[string, Lib]> = [
    ['baseline', baseline],
    ['current', current],
  ];
  for (const [, lib] of libs) for (const f of files) await lib.extractSymbols('', f.path, f.language);
  const totals = new Map<string, number[]>(libs.map(([name]) => [name, []]));
  let differ = 0;
  for (let pass = 0; pass < passes; pass++) {
    const spent = new Map<string, number>(libs.map(([name]) => [name, 0]));
    for (let i = 0; i < files.length; i++) {
      const f = files[i]!;
      const order = (i + pass) % 2 === 0 ? libs : [...libs].reverse();
      const outputs: unknown[] = [];
      for (const [name, lib] of order) {
        const started = cpu();
        outputs.push(await lib.extractSymbols(f.content, f.path, f.language, limits, 'none'));
        spent.set(name, spent.get(name)! + cpu() - started);
      }
      if (pass === 0 && !isDeepStrictEqual(outputs[0], outputs[1])) {
        differ++;
        if (differ <= 3) console.log(`output differs: ${f.path}`);
      }
    }
    for (const [name, us] of spent) totals.get(name)!.push(us / 1e6);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
  console.log(`${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; output differs on ${differ} files`);
  for (const [name, values] of totals) console.log(`${name}: CPU s per pass ${values.map((v) => v.toFixed(2)).join(', ')}; median ${median(values).toFixed(2)}`);
  const ratios = totals.get('current')!.map((v, i) => v / totals.get('baseline')![i]!);
  console.log(`current / baseline per pass: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
}

void main();
