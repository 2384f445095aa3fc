/**
 * Read your own push (docs/design/read-your-own-push.md), in one process on an in-memory SQLite
 * index of 100 repositories, with the default watcher interval (100 ms):
 *  - notification latency: a commit's flip written → notifications/resources/updated received
 *    by an MCP client (in memory), over 40 flips at random phases of the poll;
 *  - what waiters cost the index: read_file calls a second (8 at a time) and the adapter's
 *    queries a second, with no waiter against 1,000 waiters on 100 refs (10 per ref), in
 *    alternating rounds;
 *  - memory per waiter (10,000 waits for a commit never pushed) and per subscription (1,000
 *    connections subscribed against 1,000 connections not).
 * Run: npx tsx --expose-gc --tsconfig bench/tsconfig.json bench/micro/read-your-own-push.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { callTool, composeIndex, connectMcpServer, resolveDeps, waitForCommit, type ReaderDeps } from '@gitdex/reader';
import { median, percentile } from '../measure/stats';
import { pushCommit, seedRepository } from '../../services/reader/test/support/documents';

const REPOSITORIES = 100;
const NEVER = 'f'.repeat(40);
const gc = (globalThis as { gc?: () => void }).gc;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function counted(index: SqliteIndexStore): { index: SqliteIndexStore; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(index, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { index: proxy, calls: () => calls };
}

async function connect(deps: ReaderDeps): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await connectMcpServer(deps, serverSide, { transport: 'memory' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return { client, close: async () => Promise.all([client.close(), server.close()]).then(() => undefined) };
}

async function readRate(deps: ReaderDeps, calls: () => number, ms: number): Promise<{ reads: number; queries: number }> {
  const end = performance.now() + ms;
  const startQueries = calls();
  let reads = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; performance.now() < end; i += 8) {
        await callTool(deps, 'read_file', { repository: `bench/r${i % REPOSITORIES}`, path: `src/f${i % 20}.ts` }, null, { transport: 'bench' });
        reads += 1;
      }
    }),
  );
  return { reads: (reads * 1000) / ms, queries: ((calls() - startQueries) * 1000) / ms };
}

/** 1,000 waiters, 10 on each repository's main, each waiting again when its wait runs out. */
function startWaiters(deps: ReaderDeps): () => void {
  let running = true;
  for (let i = 0; i < 1000; i += 1) {
    const arm = (): void => {
      if (!running) return;
      void waitForCommit(deps, null, { repository: `bench/r${i % REPOSITORIES}`, min_commit: NEVER, wait_ms: 10_000 }).then(arm);
    };
    arm();
  }
  return () => {
    running = false;
  };
}

async function main() {
  // The watcher's timer is unref'd (it never keeps a server alive): this keeps the bench alive.
  const alive = setInterval(() => undefined, 1000);
  const raw = new SqliteIndexStore({ file: ':memory:' });
  await raw.ensureReady();
  const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.ts`, 'const x = 1;\n'.repeat(50)]));
  for (let r = 0; r < REPOSITORIES; r += 1) await seedRepository(raw, { id: r + 1, fullName: `bench/r${r}`, files });
  const { index, calls } = counted(raw);
  const deps = resolveDeps({ index: composeIndex(index), limits: { timeoutMs: 30_000 } });

  // Notification latency after the flip.
  const { client, close } = await connect(deps);
  await client.subscribeResource({ uri: 'gitdex://bench/r0' });
  const latencies: number[] = [];
  for (let flip = 0; flip < 40; flip += 1) {
    await sleep(Math.random() * 100);
    const heard = new Promise<number>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => resolve(performance.now())));
    const at = performance.now();
    await pushCommit(raw, { repositoryId: 1, ref: 'refs/heads/main', label: `flip ${flip}`, put: { 'src/f0.ts': `flip ${flip}\n` } });
    latencies.push((await heard) - at);
  }
  await close();
  console.log(`notification after the flip: p50 ${median(latencies).toFixed(1)} ms, p90 ${percentile(latencies, 0.9).toFixed(1)} ms (40 flips, poll every 100 ms)`);

  // Reads and index queries a second, without and with 1,000 waiters, alternating.
  await readRate(deps, calls, 5000);
  const rows: { waiters: number; reads: number; queries: number }[] = [];
  for (let round = 0; round < 3; round += 1) {
    rows.push({ waiters: 0, ...(await readRate(deps, calls, 3000)) });
    const stop = startWaiters(deps);
    await sleep(500);
    rows.push({ waiters: deps.watchers.counts().listeners, ...(await readRate(deps, calls, 3000)) });
    stop();
    await sleep(10_500);
  }
  for (const row of rows) console.log(`waiters ${row.waiters}: read_file ${row.reads.toFixed(0)}/s, adapter queries ${row.queries.toFixed(0)}/s`);
  const none = rows.filter((r) => r.waiters === 0);
  const some = rows.filter((r) => r.waiters > 0);
  const m = (list: typeof rows, key: 'reads' | 'queries') => median(list.map((r) => r[key]));
  console.log(`median read_file/s: none ${m(none, 'reads').toFixed(0)}, 1,000 waiters ${m(some, 'reads').toFixed(0)} (ratio ${(m(some, 'reads') / m(none, 'reads')).toFixed(3)})`);
  console.log(`median adapter queries/s: none ${m(none, 'queries').toFixed(0)}, 1,000 waiters ${m(some, 'queries').toFixed(0)}`);

  // Memory per waiter and per subscription.
  if (!gc) {
    console.log('memory: run with --expose-gc to measure');
    clearInterval(alive);
    return;
  }
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  let before = heap();
  const waits = Array.from({ length: 10_000 }, (_, i) => waitForCommit(deps, null, { repository: `bench/r${i % REPOSITORIES}`, min_commit: NEVER, wait_ms: 10_000 }));
  await sleep(300);
  const perWaiter = (heap() - before) / 10_000;
  console.log(`memory per waiter: ${perWaiter.toFixed(0)} bytes (${deps.watchers.counts().listeners} waiting)`);
  await Promise.all(waits);
  const clients: { client: Client; close: () => Promise<void> }[] = [];
  before = heap();
  for (let i = 0; i < 1000; i += 1) clients.push(await connect(deps));
  const connected = heap();
  for (let i = 0; i < 1000; i += 1) await clients[i]!.client.subscribeResource({ uri: `gitdex://bench/r${i % REPOSITORIES}` });
  const subscribed = heap();
  console.log(`memory per in-memory MCP connection: ${((connected - before) / 1000).toFixed(0)} bytes; per subscription on it: ${((subscribed - connected) / 1000).toFixed(0)} bytes`);
  for (const c of clients) await c.close();
  console.log(`after closing: ${JSON.stringify(deps.watchers.counts())}`);
  await raw.close();
  clearInterval(alive);
}

void main();
