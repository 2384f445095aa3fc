/**
 * The issue's own figure for symbols' cost: a full index end to end (push webhook → the first
 * read answers, through the GitHub stand-in, Kafka, the indexer process and Elasticsearch) with
 * symbols and without (GITDEX_SYMBOLS=false), alternated in one run on two pipelines that differ
 * only in that setting; each full index of a fresh copy of the repository (a new repository id,
 * nothing parsed before). Corpora: gitdex's own sources (a real TypeScript code repository) and
 * the write-path bench's @elastic/elasticsearch package.
 *
 *   KAFKA_BROKERS=... ELASTICSEARCH_URL=... npx tsx --tsconfig bench/tsconfig.json bench/measure/symbols-full-index.ts [runs]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { mediumCorpus, REPO_ROOT, MAX_FILE_BYTES, type Corpus } from '../data/corpora';
import { totalBytes, walk } from '../data/files';
import { startElasticsearch, type Backend } from '../setup/backends';
import { acquireEngines } from '../setup/engines';
import { copyRepo, createRepo, type BenchRepo } from '../setup/repos';
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
    const fullIndexMs = async (base: BenchRepo, mode: 'on' | 'off'): Promise<number> => {
      const backend = backends[mode]!;
      const repo = await copyRepo(root, base, `${base.name}-${mode}-${copies++}`);
      await drainTarball(standIn, repo);
      await quietElasticsearch(engines.elasticsearchUrl);
      standIn.configure({ webhookUrl: backend.webhookUrl });
      const sample = await pushAndWait({ standIn, readerUrl: backend.readerUrl }, repo, null, { intervalMs: 20, timeoutMs: 10 * 60_000, before: ZERO_SHA });
      return sample.freshnessMs;
    };
    for (const base of bases) {
      const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
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
      log(`  throughput ratio, with / without: ${(off / on).toFixed(2)}×`);
    }
  } finally {
    for (const backend of [backends.on, backends.off]) await backend?.close().catch(() => undefined);
    await standIn.close();
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
