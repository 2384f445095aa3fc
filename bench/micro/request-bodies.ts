/**
 * What a gzip bomb and slow bodies cost the webhook and /mcp (issue 40, items 2 and 3),
 * before and after the shared body reader, in one process on the embedded event log.
 * "Before" is the webhook service of a commit given as BEFORE_WEBHOOK (a path to its
 * src/app.ts, e.g. extracted with `git archive <commit> services/webhook/src`), and for /mcp
 * the parser the reader had (express.json, 1 MiB limit). Each case runs RUNS times, alternated.
 * Run: BEFORE_WEBHOOK=… npx tsx --tsconfig bench/tsconfig.json bench/micro/request-bodies.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import { Registry } from 'prom-client';
import { BodyBudget, silentLog } from '@gitdex/observability';
import { SqliteEventLog, SqliteIndexStore } from '@gitdex/sqlite';
import { createWebhookApp as createAfter, sign } from '@gitdex/webhook';
import { createReaderApp } from '@gitdex/reader';
import { median } from '../measure/stats';
import { slowRequest } from '../../test/support/slow-request';

const RUNS = Number(process.env.RUNS ?? 5);
const MiB = 1024 * 1024;
const SECRET = 'a-webhook-secret-of-some-length';
const FORGED = 'sha256=' + 'a'.repeat(64);

type CreateApp = (options: Record<string, unknown>) => http.RequestListener;

async function listen(app: http.RequestListener): Promise<{ url: URL; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Peak of process.memoryUsage().arrayBuffers (Buffers live there) above its level at the start, sampled every 2 ms. */
async function peakBuffers<T>(run: () => Promise<T>): Promise<{ value: T; peakMiB: number; ms: number }> {
  global.gc?.();
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2);
  const started = performance.now();
  const value = await run();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  return { value, peakMiB: (peak - base) / MiB, ms };
}

async function post(url: URL, path: string, headers: Record<string, string>, body: Buffer, localAddress = '127.0.0.1'): Promise<number> {
  const call = slowRequest(url, { path, headers: { ...headers, 'content-length': String(body.length) }, localAddress });
  call.end(body);
  return (await call.answer).status;
}

async function webhook(create: CreateApp, body: Record<string, unknown> = {}) {
  const log = new SqliteEventLog({ file: ':memory:', log: silentLog });
  const served = await listen(create({ secrets: [SECRET], publisher: log, registry: new Registry(), body }));
  return { ...served, close: async () => (await served.close(), await log.close()) };
}

async function gzipBombWebhook(label: string, create: CreateApp) {
  const bomb = gzipSync(Buffer.alloc(24 * MiB, 0x20));
  const budget = new BodyBudget({ maxBytes: 64 * MiB, maxBytesPerAddress: 32 * MiB });
  const s = await webhook(create, { budget });
  const rows: { status: number; peakMiB: number; ms: number }[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-github-event': 'push', 'x-github-delivery': `bomb-${i}`, 'x-hub-signature-256': FORGED };
    const { value, peakMiB, ms } = await peakBuffers(() => post(s.url, '/webhooks/github', headers, bomb));
    rows.push({ status: value, peakMiB, ms });
  }
  await s.close();
  console.log(
    `webhook gzip bomb (${(bomb.length / 1024).toFixed(0)} KB sent, 24 MiB inflated) ${label}: status ${rows[0]?.status}, answer p50 ${median(rows.map((r) => r.ms)).toFixed(1)} ms, buffers peak p50 ${median(rows.map((r) => r.peakMiB)).toFixed(1)} MiB, budget peak ${(budget.peak / 1024).toFixed(1)} KiB`,
  );
}

async function gzipBombMcp(label: string, app: http.RequestListener) {
  const bomb = gzipSync(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { pad: ' '.repeat(24 * MiB) } } })));
  const s = await listen(app);
  const rows: { status: number; peakMiB: number; ms: number }[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-encoding': 'gzip' };
    const { value, peakMiB, ms } = await peakBuffers(() => post(s.url, '/mcp', headers, bomb));
    rows.push({ status: value, peakMiB, ms });
  }
  await s.close();
  console.log(
    `/mcp gzip bomb (${(bomb.length / 1024).toFixed(0)} KB sent) ${label}: status ${rows[0]?.status}, answer p50 ${median(rows.map((r) => r.ms)).toFixed(1)} ms, buffers peak p50 ${median(rows.map((r) => r.peakMiB)).toFixed(1)} MiB`,
  );
}

/** Three slow bodies from one address (two chunked, one declaring 14 MB), each 1 KB sent; then real deliveries from another address. */
async function slowBodies(label: string, create: CreateApp, chunked = 2) {
  const budget = new BodyBudget({ maxBytes: 64 * MiB, maxBytesPerAddress: 32 * MiB });
  const s = await webhook(create, { budget });
  const hook = new URL('/webhooks/github', s.url);
  const started = performance.now();
  const shapes = [...Array.from({ length: chunked }, () => ({ 'transfer-encoding': 'chunked' })), { 'content-length': '14000000' }];
  const slow = shapes.map((extra) =>
    slowRequest(hook, { headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'slow', 'x-hub-signature-256': FORGED, ...extra } }),
  );
  const cut: number[] = [];
  for (const call of slow) {
    call.write(Buffer.alloc(1024, 0x20));
    const done = () => cut.push(performance.now() - started);
    void call.answer.then(done, done);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const statuses: Record<string, number[]> = {};
  for (const size of [10 * 1024, 1 * MiB]) {
    const body = Buffer.from(JSON.stringify({ zen: 'real', hook_id: 1, pad: ' '.repeat(size) }));
    const got: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      got.push(
        await post(
          s.url,
          '/webhooks/github',
          { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': `real-${size}-${i}`, 'x-hub-signature-256': sign(body, SECRET) },
          body,
          '127.0.0.2',
        ),
      );
    }
    statuses[`${size / 1024} KiB`] = got;
  }
  const heldWhileSlow = budget.inFlightOf('127.0.0.1');
  // How long until the service lets go of them (after: the minimum rate; before: Node's request timeout, 300 s, not waited for).
  await Promise.race([Promise.all(slow.map((c) => c.answer)), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  for (const call of slow) call.abort();
  await s.close();
  console.log(
    `${slow.length} slow bodies ${label}: real deliveries from another address ${JSON.stringify(statuses)}; slow bodies' bytes counted ${heldWhileSlow} B; cut off after ${cut.length ? cut.map((ms) => (ms / 1000).toFixed(1)).join(', ') + ' s' : 'not within 15 s'}`,
  );
}

/** A body that sends 1 MB at once and then stalls: cut at the deadline (after), or held until Node's request timeout (before). */
async function burstThenStall(label: string, create: CreateApp) {
  const s = await webhook(create);
  const started = performance.now();
  const call = slowRequest(new URL('/webhooks/github', s.url), {
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'stall', 'x-hub-signature-256': FORGED, 'content-length': String(2 * MiB) },
  });
  call.write(Buffer.alloc(MiB, 0x20));
  const answer = await Promise.race([
    call.answer.then(
      (a) => a.status,
      (e: Error) => e.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('none within 15 s'), 15_000)),
  ]);
  call.abort();
  await s.close();
  console.log(`1 MB then a stall ${label}: ${answer} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function main() {
  const before = process.env.BEFORE_WEBHOOK ? ((await import(process.env.BEFORE_WEBHOOK)) as { createWebhookApp: CreateApp }).createWebhookApp : undefined;
  const after = createAfter as unknown as CreateApp;
  const beforeMcp = express().post('/mcp', express.json({ limit: MiB }), (_req, res) => {
    res.json({ jsonrpc: '2.0', id: 1, result: {} });
  });
  beforeMcp.use((error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.status ?? 500).json({});
  });
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  const afterMcp = createReaderApp({ index }, { registry: new Registry() });
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round += 1) {
    if (before) await gzipBombWebhook('before', before);
    await gzipBombWebhook('after', after);
    await gzipBombMcp('before (express.json)', beforeMcp);
    await gzipBombMcp('after', afterMcp);
  }
  for (const chunked of [2, 3]) {
    if (before) await slowBodies('before', before, chunked);
    await slowBodies('after', after, chunked);
  }
  if (before) await burstThenStall('before', before);
  await burstThenStall('after', after);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
