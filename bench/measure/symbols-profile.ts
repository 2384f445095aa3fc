/**
 * Where extraction's time goes: extractSymbols in this thread over the medium corpus (its
 * TypeScript and JavaScript files), a warm-up pass then timed passes; the median pass. Run under
 * `node --cpu-prof` to see the split between parsing, the tags query and the walks. Definitions
 * only, as the indexer extracts, unless SYMBOL_OCCURRENCES=all (find_references's earlier mode).
 *
 *   node scripts/prepare.mjs --build -- tsx --tsconfig bench/tsconfig.json bench/measure/symbols-profile.ts [runs]
 */
import { readFileSync } from 'node:fs';
import { createSymbolExtractor, extractSymbols } from '@gitdex/symbols';
import { mediumCorpus } from '../data/corpora';

const RUNS = Number(process.argv[2] ?? 3);
const OCCURRENCES = process.env.SYMBOL_OCCURRENCES === 'all' ? 'all' : 'none';
const LANGUAGE: Record<string, string> = { '.ts': 'TypeScript', '.mts': 'TypeScript', '.cts': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript' };
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const corpus = mediumCorpus();
  const files = corpus.files.flatMap((file) => {
    const ext = file.path.slice(file.path.lastIndexOf('.'));
    const language = LANGUAGE[ext];
    return language ? [{ path: file.path, language, content: readFileSync(file.abs, 'utf8') }] : [];
  });
  const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
  const times: number[] = [];
  const cpu: number[] = [];
  let occurrences = 0;
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    occurrences = 0;
    for (const file of files) occurrences += (await extractSymbols(file.content, file.path, file.language, undefined, OCCURRENCES)).occurrences.length;
    if (run > 0) times.push(performance.now() - started);
    if (run > 0) cpu.push(cpuMs(process.cpuUsage(cpuStarted)));
  }
  const threads = Number(process.env.SYMBOL_THREADS ?? 1);
  const extractor = createSymbolExtractor({ threads });
  const pooled: number[] = [];
  const pooledCpu: number[] = [];
  try {
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await Promise.all(files.map((file) => extractor.extract(file.content, file.path, file.language, OCCURRENCES)));
      if (run > 0) pooled.push(performance.now() - started);
      if (run > 0) pooledCpu.push(cpuMs(process.cpuUsage(cpuStarted)));
    }
  } finally {
    await extractor.close();
  }
  console.log(`${corpus.description}: ${files.length} parsed files, ${bytes} bytes, ${occurrences} occurrences`);
  console.log(`extractSymbols in-thread: median ${median(times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')}), CPU ${median(cpu).toFixed(0)} ms`);
  console.log(`through the pool, ${threads} threads: median ${median(pooled).toFixed(0)} ms (${pooled.map((t) => t.toFixed(0)).join(', ')}), CPU of every thread ${median(pooledCpu).toFixed(0)} ms`);
}

void main();
