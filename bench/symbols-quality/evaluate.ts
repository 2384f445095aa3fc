/**
 * Symbol extraction against universal-ctags on real code: per set, recall of ctags's definitions
 * (functions, methods, classes, interfaces, structs, enums, types) in our file outlines, precision
 * the other way, what each finds that the other does not, and extraction CPU beside ctags's on the
 * same files. Held-out sets were never used to write the queries (docs/design/symbols.md).
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/symbols-quality/evaluate.ts [--limit=N]
 *      [--set=Language:folder ...] [--examples=N] [--out=file.json] [--occurrences=none|all]
 * A --set is held out; e.g. --set=Rust:/path/to/a/crate adds a language the machine lacks.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, extractSymbols } from '@gitdex/symbols';
import type { SymbolDefinition } from '@gitdex/contracts';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { compare, findByName, type Comparison, type FindFigures } from './compare';
import { filesOf, qualitySets, type QualitySet } from './corpora';
import { runCtags } from './ctags';

const EXTENSIONS: Record<string, string[]> = {
  Rust: ['.rs'],
  'C#': ['.cs'],
  Ruby: ['.rb'],
  PHP: ['.php'],
  C: ['.c', '.h'],
  'C++': ['.cc', '.cpp', '.hpp', '.h'],
  Go: ['.go'],
  Java: ['.java'],
  Python: ['.py'],
  TypeScript: ['.ts', '.tsx'],
  JavaScript: ['.js', '.mjs', '.cjs'],
};

export interface SetResult {
  set: string;
  language: string;
  role: QualitySet['role'];
  files: number;
  parsed: number;
  skippedOrFailed: number;
  comparison: Comparison;
  find: FindFigures;
  ourCpuSeconds: number;
  ctagsCpuSeconds: number;
  bytes: number;
}

function extraSets(specs: readonly string[]): QualitySet[] {
  return specs.map((spec) => {
    const [language, root] = spec.split(/:(.*)/s);
    if (!language || !root || !EXTENSIONS[language]) throw new Error(`--set=${spec}: expected Language:folder with Language one of ${Object.keys(EXTENSIONS).join(', ')}`);
    return { name: basename(root), language, role: 'held-out' as const, root, extensions: EXTENSIONS[language], skip: /\/(tests?|testdata|vendor|benches)\// };
  });
}

export async function evaluateSet(set: QualitySet, limit: number, occurrences: 'all' | 'none' = 'none'): Promise<SetResult> {
  const files = filesOf(set, limit);
  const contents = files.map((f) => readFileSync(join(set.root, f), 'utf8'));
  const outlines = new Map<string, SymbolDefinition[]>();
  let parsed = 0;
  // Warm the grammar (its wasm loads once per thread) outside the measured loop.
  await extractSymbols('', `warm${extname(files[0] ?? '.x')}`, set.language);
  const before = process.cpuUsage();
  for (let i = 0; i < files.length; i++) {
    // 'none' as the indexer extracts (find_references walks for one name when asked); 'all' the earlier mode.
    const symbols = await extractSymbols(contents[i]!, files[i]!, set.language, { maxBytes: DEFAULT_MAX_BYTES, timeoutMs: DEFAULT_TIMEOUT_MS }, occurrences);
    if (symbols.status === 'parsed') parsed++;
    outlines.set(files[i]!, symbols.definitions);
  }
  const cpu = process.cpuUsage(before);
  const ctags = runCtags(set.root, files);
  return {
    set: set.name,
    language: set.language,
    role: set.role,
    files: files.length,
    parsed,
    skippedOrFailed: files.length - parsed,
    comparison: compare(ctags.tags, outlines),
    find: findByName(ctags.tags, outlines),
    ourCpuSeconds: (cpu.user + cpu.system) / 1e6,
    ctagsCpuSeconds: ctags.cpuSeconds,
    bytes: contents.reduce((n, c) => n + Buffer.byteLength(c), 0),
  };
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
const top = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '–';

export function table(results: readonly SetResult[]): string {
  const rows = results.map((r) => {
    const c = r.comparison;
    return `| ${r.language} | ${r.set} | ${r.role} | ${r.files} (${r.skippedOrFailed} not parsed) | ${c.ctags} | ${pct(c.found, c.ctags)} | ${pct(c.confirmed, c.ours)} | ${pct(r.find.top5, r.find.asked)} / ${pct(r.find.uniqueFirst, r.find.unique)} | ${top(c.missedByKind)} | ${top(c.extraByKind)} | ${r.ourCpuSeconds.toFixed(2)} / ${r.ctagsCpuSeconds.toFixed(2)} = ${(r.ourCpuSeconds / Math.max(r.ctagsCpuSeconds, 0.001)).toFixed(1)}× |`;
  });
  const heldOut = results.filter((r) => r.role === 'held-out');
  const sum = (f: (r: SetResult) => number) => heldOut.reduce((n, r) => n + f(r), 0);
  const ratio = (a: number, b: number) => `${a.toFixed(2)} / ${b.toFixed(2)} = ${(a / Math.max(b, 0.001)).toFixed(1)}×`;
  const cells = [
    'all held out',
    '',
    '',
    `${sum((r) => r.files)}`,
    `${sum((r) => r.comparison.ctags)}`,
    pct(
      sum((r) => r.comparison.found),
      sum((r) => r.comparison.ctags),
    ),
    pct(
      sum((r) => r.comparison.confirmed),
      sum((r) => r.comparison.ours),
    ),
    `${pct(
      sum((r) => r.find.top5),
      sum((r) => r.find.asked),
    )} / ${pct(
      sum((r) => r.find.uniqueFirst),
      sum((r) => r.find.unique),
    )}`,
    '',
    '',
    ratio(
      sum((r) => r.ourCpuSeconds),
      sum((r) => r.ctagsCpuSeconds),
    ),
  ];
  rows.push(`| ${cells.join(' | ')} |`);
  return [
    "| language | set | role | files | ctags definitions | recall (outline holds ctags's) | precision (ctags has ours) | by name: top 5 / first when unique (stand-in ranking) | ctags finds, we do not | we find, ctags does not | CPU s, ours / ctags |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string', default: '300' },
      set: { type: 'string', multiple: true, default: [] },
      examples: { type: 'string', default: '0' },
      out: { type: 'string' },
      occurrences: { type: 'string', default: 'none' },
    },
  });
  const limit = Number(values.limit);
  const examples = Number(values.examples);
  const scratch = mkdtempSync(join(tmpdir(), 'symbols-quality-'));
  const results: SetResult[] = [];
  for (const set of qualitySets(scratch, extraSets(values.set ?? []))) {
    process.stderr.write(`${set.language}: ${set.name} (${set.role})\n`);
    const result = await evaluateSet(set, limit, values.occurrences === 'all' ? 'all' : 'none');
    results.push(result);
    // Examples only of tuning sets: reading a held-out set's misses would make it a tuning set.
    if (examples > 0 && set.role === 'tuning') {
      process.stderr.write(`  missed: ${result.comparison.missed.slice(0, examples).join('\n          ')}\n`);
      process.stderr.write(`  extra:  ${result.comparison.extra.slice(0, examples).join('\n          ')}\n`);
    }
  }
  process.stdout.write(`${table(results)}\n`);
  if (values.out) writeFileSync(values.out, JSON.stringify(results, null, 2));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
