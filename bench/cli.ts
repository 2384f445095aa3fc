/**
 * gitdex benchmarks. `npm run bench` (full) or `npm run bench -- --quick` (a few minutes, CI
 * smoke: no timing assertions). Options: --only=indexing,freshness,reads,reads-load,suggest,search
 * --backends=elasticsearch,sqlite --out=<dir> --keep (keep the scratch folder) --cpu-prof (V8 CPU
 * profile of each indexer process, summarized in results.md, kept in <out>/cpu-profiles/)
 * --report-check (also writes the report from every row's samples repeated past a full run's count)
 * --large-files=N (the large repository's size; quick runs use 2,000, full runs 55,000).
 * Writes bench/results/<timestamp>/results.json, results.md and SVG charts. See docs/benchmarks.md.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGitHubStandIn } from '../test/github-standin/server';
import { benchConfig } from './config';
import { REPO_ROOT } from './data/corpora';
import type { Results } from './report/model';
import { summarizeProfiles } from './report/cpuprofile';
import { resultsTable } from './report/markdown';
import { REPORT_CHECK_SAMPLES, withSamplesRepeated } from './report/scale';
import { writeResults } from './report/write';
import { startElasticsearch, startSqlite, type Backend, type BackendName } from './setup/backends';
import { prepareData } from './setup/data';
import { acquireEngines, type Engines } from './setup/engines';
import type { SuiteContext } from './suites/context';
import { runBackend, SUITES } from './suites/run';

const SECRET = 'bench-webhook-secret';

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      backends: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'report-check': { type: 'boolean', default: false },
      'large-files': { type: 'string' },
    },
    allowPositionals: false,
  });
  const list = <T extends string>(text: string | undefined, all: readonly T[], what: string): T[] => {
    if (!text) return [...all];
    const picked = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const p of picked) if (!all.includes(p as T)) throw new Error(`--${what}: unknown ${p}; one of ${all.join(', ')}`);
    return picked as T[];
  };
  return {
    mode: values.quick ? ('quick' as const) : ('full' as const),
    suites: list(values.only, SUITES, 'only'),
    backends: list<BackendName>(values.backends, ['elasticsearch', 'sqlite'], 'backends'),
    out: values.out,
    keep: values.keep ?? false,
    cpuProf: values['cpu-prof'] ?? false,
    reportCheck: values['report-check'] ?? false,
    largeFiles: values['large-files'] === undefined ? undefined : positiveInteger(values['large-files'], 'large-files'),
  };
}

function positiveInteger(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${what}: a whole number of at least 1 (got ${text})`);
  return n;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
}

async function main(): Promise<number> {
  const opts = options();
  const config = { ...benchConfig(opts.mode), ...(opts.largeFiles !== undefined ? { largeFiles: opts.largeFiles } : {}) };
  const startedAt = new Date();
  const log = (line: string) => process.stderr.write(`[bench ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const results: Results = {
    mode: opts.mode,
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      loadBefore: loadavg(),
    },
    data: [],
    rows: [],
    profiles: [],
    charts: [],
    notes: [],
    failures: [],
  };
  const runId = startedAt.getTime().toString(36);
  const outDir = opts.out ?? join(REPO_ROOT, 'bench', 'results', stamp(startedAt));
  const workDir = mkdtempSync(join(tmpdir(), 'gitdex-bench-'));
  const root = join(workDir, 'repos');
  let engines: Engines | null = null;
  const closers: (() => Promise<void>)[] = [];
  log(`${opts.mode} run: suites ${opts.suites.join(', ')} on ${opts.backends.join(', ')}; scratch ${workDir}`);
  let current: Backend | null = null;
  // Ctrl-C or a CI timeout: stop the gitdex processes, the stand-in and the engines this run started.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void (async () => {
        await current?.close().catch(() => undefined);
        for (const close of closers.reverse()) await close().catch(() => undefined);
        if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
        process.exit(130);
      })();
    });
  }
  try {
    const data = await prepareData(config, root, workDir, log, { large: opts.suites.includes('indexing'), fresh: opts.suites.includes('freshness') });
    results.data.push(...data.corpora.map((c) => ({ name: `bench/${c.name}`, files: c.files.length, bytes: c.bytes, description: c.description })));
    if (data.fresh.length > 0)
      results.data.push({
        name: `bench/fresh-00…${String(data.fresh.length - 1).padStart(2, '0')}`,
        files: data.small.corpus.files.length,
        bytes: data.small.corpus.bytes,
        description: `${data.fresh.length} copies of bench/small: the repositories freshness pushes go to`,
      });
    mkdirSync(join(workDir, 'archives'));
    const standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000_000 }, archiveCacheDir: join(workDir, 'archives') });
    closers.push(() => standIn.close());
    if (opts.backends.includes('elasticsearch')) {
      engines = await acquireEngines(log);
      const held = engines;
      closers.push(() => held.release());
    }
    const ctx: SuiteContext = { config, results, standIn, root, workDir, engines, repos: data, log };
    for (const name of opts.backends) {
      const cpuProfileDir = opts.cpuProf ? join(outDir, 'cpu-profiles', name) : undefined;
      const backendOptions = { standInUrl: standIn.url, secret: SECRET, workDir, runId, ...(cpuProfileDir ? { cpuProfileDir } : {}) };
      let backend: Backend | null = null;
      try {
        backend = name === 'elasticsearch' ? await startElasticsearch(engines!, backendOptions) : await startSqlite(backendOptions);
        current = backend;
        results.notes.push(`${name}: ${backend.describe}`);
        standIn.configure({ webhookUrl: backend.webhookUrl });
        await runBackend(ctx, backend, opts.suites);
      } catch (error) {
        const message = `${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
        results.failures.push(message.slice(0, 4000));
        log(`FAILED ${message}`);
        if (backend) log(`last output of the ${name} indexer process:\n${backend.indexer.output().slice(-3000)}`);
      } finally {
        await backend?.close().catch((error: unknown) => log(`closing ${name}: ${String(error)}`));
        current = null;
        if (cpuProfileDir) results.profiles.push({ title: `CPU profile of the ${name} indexer process (node --cpu-prof)`, lines: summarizeProfiles(cpuProfileDir) });
      }
    }
  } catch (error) {
    results.failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    log(`FAILED ${String(error)}`);
  } finally {
    for (const close of closers.reverse()) await close().catch((error: unknown) => log(`cleanup: ${String(error)}`));
    if (!opts.keep) rmSync(workDir, { recursive: true, force: true });
  }
  results.finishedAt = new Date().toISOString();
  results.durationSeconds = (Date.now() - startedAt.getTime()) / 1000;
  results.machine.loadAfter = loadavg();
  results.notes.push(
    'GitHub is the local stand-in (test/github-standin: real git repositories served over HTTP on 127.0.0.1), so GitHub API latency is not in these figures; real GitHub adds 50–300 ms a call.',
    `Freshness and one-file pushes poll read_file over REST every ${config.freshness.pollMs} ms: a figure can be up to that much late.`,
    'Everything (engines, gitdex, the stand-in, the clients) shares the same 2 cores with whatever else runs on the machine; ratios to baselines measured in the same run are the figures to compare across runs.',
  );
  const files = writeResults(outDir, results);
  if (opts.reportCheck) {
    // CI's check that the report does not depend on the number of samples: the same report
    // again, every sample set repeated up to more samples than a full run takes.
    // Written to a scratch folder and removed: with every row that large, results.json is a gigabyte.
    const check = mkdtempSync(join(tmpdir(), 'gitdex-report-check-'));
    try {
      const written = writeResults(check, withSamplesRepeated(results, REPORT_CHECK_SAMPLES));
      const megabytes = written.reduce((sum, file) => sum + statSync(file).size, 0) / 1e6;
      log(`report check: wrote ${written.length} files (${megabytes.toFixed(0)} MB) from rows of ≥ ${REPORT_CHECK_SAMPLES.toLocaleString('en-US')} samples, then removed them`);
    } finally {
      rmSync(check, { recursive: true, force: true });
    }
  }
  process.stdout.write(`\n${resultsTable(results.rows)}\n\n`);
  log(`wrote ${files.length} files to ${outDir}`);
  if (results.failures.length > 0) {
    log(`${results.failures.length} failure(s):\n${results.failures.join('\n')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
