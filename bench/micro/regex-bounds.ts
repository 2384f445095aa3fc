import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { RE2JS } from 're2js';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createReaderApp } from '@gitdex/reader';
import { seedRepository } from '../../services/reader/test/support/documents';

// Issue 40, item 1: the worst regex within search_code's bounds (its compile and its search), and
// /healthz's latency while hostile searches run against the real reader HTTP server (SQLite, in process).
// Run: npx tsx --tsconfig bench/tsconfig.json bench/micro/regex-bounds.ts (after node scripts/prepare.mjs --build).

const WORST = ['[^!]{999}[^!]{999}!', '\\w{1,1000}x', '([^!]{199}){5}!', '(?i)[[:alpha:]]{999}[[:alpha:]]{999}!'];
const MB = 1024 * 1024;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

function compileCost(pattern: string): { ms: number; heapMb: number } {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const start = performance.now();
  const re = RE2JS.compile(pattern, RE2JS.MULTILINE);
  re.test('warm');
  const ms = performance.now() - start;
  const heapMb = (process.memoryUsage().heapUsed - before) / MB;
  return { ms, heapMb };
}

async function main(): Promise<void> {
  for (const pattern of WORST) {
    const { ms, heapMb } = compileCost(pattern);
    console.log(`compile ${JSON.stringify(pattern)}: ${ms.toFixed(1)} ms, heap +${heapMb.toFixed(1)} MB`);
  }
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  const long = `${'x'.repeat(MB)}!\n`;
  await seedRepository(index, { id: 1, fullName: 'bench/long', files: { 'a.txt': long, 'b.txt': long, 'c.txt': long, 'small.ts': 'export const needle = 1;\n' } });
  const app = createReaderApp({ index }, { registry: new Registry() });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const probe = async (ms: number): Promise<number[]> => {
    const latencies: number[] = [];
    const until = performance.now() + ms;
    while (performance.now() < until) {
      const start = performance.now();
      await (await fetch(`${base}/healthz`)).text();
      latencies.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return latencies;
  };
  const report = (label: string, values: number[]) =>
    console.log(`${label}: n=${values.length} p50 ${quantile(values, 0.5).toFixed(1)} ms, p99 ${quantile(values, 0.99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`);

  const loop = monitorEventLoopDelay({ resolution: 5 });
  const loopReport = (label: string) => {
    console.log(`event loop delay, ${label}: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
    loop.reset();
  };
  loop.enable();
  report('healthz, idle', await probe(3_000));
  loopReport('idle');

  const search = async (pattern: string) => {
    const start = performance.now();
    const response = await fetch(`${base}/v1/search?repository=bench/long&regex=true&q=${encodeURIComponent(pattern)}`);
    const body = (await response.json()) as { complete?: boolean; error?: { code: string } };
    return { ms: performance.now() - start, status: response.status, complete: body.complete, code: body.error?.code };
  };
  // Ten hostile searches at once, asked again as each answers, for 12 s; /healthz probed meanwhile.
  const answers: Awaited<ReturnType<typeof search>>[] = [];
  let stop = false;
  const loops = Array.from({ length: 10 }, async (_, i) => {
    while (!stop) {
      const answer = await search(WORST[i % WORST.length] as string);
      answers.push(answer);
      if (answer.status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  const under = await probe(12_000);
  stop = true;
  await Promise.all(loops);
  report('healthz, 10 hostile searches in flight', under);
  loopReport('10 hostile searches in flight');
  const ran = answers.filter((a) => a.status === 200);
  console.log(
    `searches: ${answers.length} answers, ${ran.length} ran (complete: false ${ran.filter((a) => a.complete === false).length}), busy ${answers.filter((a) => a.code === 'UNAVAILABLE').length}; ran p50 ${quantile(
      ran.map((a) => a.ms),
      0.5,
    ).toFixed(0)} ms, max ${Math.max(...ran.map((a) => a.ms)).toFixed(0)} ms`,
  );
  console.log(`rss ${(process.memoryUsage().rss / MB).toFixed(0)} MB`);
  server.close();
  await index.close();
  process.exit(0);
}

void main();
