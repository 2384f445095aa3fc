/**
 * The issue's own figure for symbols' cost: a full index end to end (push webhook → the first
 * read answers, through the GitHub stand-in, Kafka, the indexer process and Elasticsearch) with
 * symbols and without (GITDEX_SYMBOLS=false), alternated in one run on two pipelines that differ
 * only in that setting; each full index of a fresh copy of the repository (a new repository id,
 * every blob changed by a line naming the copy, so nothing is parsed before or reused). Corpora: gitdex's own sources (a real TypeScript code repository) and
 * the write-path bench's @elastic/elasticsearch package.
 *
 *   KAFKA_BROKERS=... ELASTICSEARCH_URL=... npx tsx --tsconfig bench/tsconfig.json bench/measure/symbols-full-index.ts [runs]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { mediumCorpus, REPO_ROOT, MAX_FILE_BYTES, type Corpus } from '../data/corpora';
import { totalBytes, walk, type SourceFile } from '../data/files';
import { startElasticsearch, type Backend } from '../setup/backends';
import { acquireEngines } from '../setup/engines';
import { createRepo, type BenchRepo } from '../setup/repos';
import { drainTarball } from './archive';
import { pushAndWait } from './push';
import { quietElasticsearch } from './settle';
import { median } from './stats';

const RUNS = Number(process.argv[2] ?? 5);
const SECRET = 'bench-webhook-secret';
const ZERO_SHA = '0'.repeat(40);

/** gitdex's sources as they are in this checkout: no dependencies, builds or generated data. */
function gitdexSources(): Corpus {
  const dirs = ['libs', 'services', 'bench', 'test', 'scripts', 'docs'];
  const files = dirs.flatMap((dir) => walk(join(REPO_ROOT, dir), { maxBytes: MAX_FILE_BYTES, skipDirs: ['.git', 'node_modules', 'dist', 'coverage', 'data'], prefix: dir }).files);
  return { name: 'gitdex', description: 'gitdex sources (libs, services, bench, test, scripts, docs)', files, bytes: totalBytes(files) };
}

/** CPU seconds a process has used, every thread (the symbol pool's workers included): utime + stime of /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const COMMENT: Record<string, string> = { '.py': '#', '.rb': '#', '.sh': '#', '.yml': '#', '.yaml': '#', '.md': '', '.json': '', '.txt': '' };

/**
 * The corpus with a line naming the copy appended to every file: every blob is new, so nothing is
 * reused from an earlier index (a blob already parsed is never parsed again, in any repository),
 * and each full index with symbols parses every parseable file.
 */
function uniqueCorpus(base: Corpus, dir: string, marker: string): Corpus {
  const files: SourceFile[] = base.files.map((file) => {
    const abs = join(dir, file.path);
    const comment = COMMENT[extname(file.path)] ?? '//';
    const content = Buffer.concat([readFileSync(file.abs), Buffer.from(`\n${comment}${comment ? ' ' : ''}${marker}\n`)]);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return { ...file, abs, size: content.length };
  });
  return { ...base, files, bytes: totalBytes(files) };
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(line);
  const workDir = mkdtempSync(join(tmpdir(), 'gitdex-symcost-'));
  const root = join(workDir, 'repos');
  mkdirSync(join(workDir, 'archives'), { recursive: true });
  const engines = await acquireEngines(log);
  const standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000_000 }, archiveCacheDir: join(workDir, 'archives') });
  const backends: Record<'on' | 'off', Backend | null> = { on: null, off: null };
  try {
    const runId = Date.now().toString(36);
    backends.on = await startElasticsearch(engines, { standInUrl: standIn.url, secret: SECRET, workDir: join(workDir, 'on'), runId: `${runId}on` });
    backends.off = await startElasticsearch(engines, { standInUrl: standIn.url, secret: SECRET, workDir: join(workDir, 'off'), runId: `${runId}off` });
    await backends.off.restartIndexer!({ GITDEX_SYMBOLS: 'false' });
    const bases = [await createRepo(root, 'gitdex', gitdexSources()), await createRepo(root, 'elastic', mediumCorpus())];
    let copies = 0;
    const cpu: Record<'on' | 'off', number[]> = { on: [], off: [] };
    const fullIndexMs = async (base: BenchRepo, mode: 'on' | 'off'): Promise<number> => {
      const backend = backends[mode]!;
      const name = `${base.name}-${mode}-${copies++}`;
      const repo = await createRepo(root, name, uniqueCorpus(base.corpus, join(workDir, 'copies', name), `gitdex bench copy ${name}`));
      await drainTarball(standIn, repo);
      await quietElasticsearch(engines.elasticsearchUrl);
      standIn.configure({ webhookUrl: backend.webhookUrl });
      const cpuBefore = cpuSeconds(backend.indexer.pid);
      const sample = await pushAndWait({ standIn, readerUrl: backend.readerUrl }, repo, null, { intervalMs: 20, timeoutMs: 10 * 60_000, before: ZERO_SHA });
      cpu[mode].push(cpuSeconds(backend.indexer.pid) - cpuBefore);
      return sample.freshnessMs;
    };
    for (const base of bases) {
      const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
      const counted = { on: cpu.on.length + 1, off: cpu.off.length + 1 };
      // One warm-up of each (the worker pool starting, grammars loading, the JIT), then RUNS of each, alternating who goes first.
      await fullIndexMs(base, 'off');
      await fullIndexMs(base, 'on');
      for (let r = 0; r < RUNS; r += 1) {
        for (const mode of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
          const ms = await fullIndexMs(base, mode);
          times[mode].push(ms);
          log(`  ${base.name} symbols ${mode}: ${ms.toFixed(0)} ms`);
        }
      }
      const off = median(times.off);
      const on = median(times.on);
      log(`${base.corpus.description}: ${base.corpus.files.length} files, ${(base.corpus.bytes / 1e6).toFixed(1)} MB`);
      log(`  without symbols: median ${off.toFixed(0)} ms (${times.off.map((ms) => ms.toFixed(0)).join(', ')})`);
      log(`  with symbols:    median ${on.toFixed(0)} ms (${times.on.map((ms) => ms.toFixed(0)).join(', ')})`);
      const cpuOf = (mode: 'on' | 'off') => cpu[mode].slice(counted[mode]);
      log(`  indexer process CPU a full index (all threads): without ${median(cpuOf('off')).toFixed(2)} s, with ${median(cpuOf('on')).toFixed(2)} s (medians)`);
      log(`  throughput ratio, with / without: ${(off / on).toFixed(2)}× (medians); median of each round's own ratio ${median(times.on.map((ms, r) => times.off[r]! / ms)).toFixed(2)}×`);
    }
  } finally {
    for (const backend of [backends.on, backends.off]) await backend?.close().catch(() => undefined);
    // The stand-in's close waits for idle keep-alive connections of the readers' polls: bounded.
    await Promise.race([standIn.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await engines.release();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
