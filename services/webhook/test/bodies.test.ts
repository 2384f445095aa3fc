import { recordingLog } from '../../../test/support/recording-log';
import { slowRequest } from '../../../test/support/slow-request';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Registry } from 'prom-client';
import { BodyBudget } from '@gitdex/observability';
import { SqliteEventLog } from '@gitdex/sqlite';
import { createWebhookApp } from '../src/app';
import type { WebhookBodyOptions } from '../src/body';
import { sign } from '../src/signature';

/**
 * Webhook bodies cost what was read, never what was declared or what it would inflate to,
 * and slow bodies from one address cannot take the budget a real delivery needs (issue 40,
 * items 2 and 3). Over real HTTP with the embedded event log.
 */
const SECRET = 'a-webhook-secret-of-some-length';
const FORGED = 'sha256=' + 'a'.repeat(64);

interface Served {
  url: URL;
  registry: Registry;
  published(): Promise<number>;
  close(): Promise<void>;
}

async function serve(body: WebhookBodyOptions): Promise<Served> {
  const log = new SqliteEventLog({ file: ':memory:', log: recordingLog() });
  let published = 0;
  const publisher = {
    publish: async (events: Parameters<SqliteEventLog['publish']>[0]) => {
      await log.publish(events);
      published += events.length;
    },
    ping: () => log.ping(),
    close: () => log.close(),
  };
  const registry = new Registry();
  const app = createWebhookApp({ secrets: [SECRET], publisher, registry, body });
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`),
    registry,
    published: () => Promise.resolve(published),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await log.close();
    },
  };
}

/** A POST to the webhook whose body the test sends piece by piece. */
const open = (url: URL, headers: Record<string, string>, localAddress = '127.0.0.1') => slowRequest(url, { headers, localAddress });

const headersFor = (body: Buffer, signature = sign(body, SECRET)) => ({
  'content-type': 'application/json',
  'x-github-event': 'ping',
  'x-github-delivery': `d-${Math.random()}`,
  'x-hub-signature-256': signature,
});
/** A signed ping padded to about `bytes`: what a real delivery of that size costs. */
const pingOf = (bytes: number) => Buffer.from(JSON.stringify({ zen: 'real', hook_id: 1, pad: ' '.repeat(bytes) }));

describe('a compressed body is refused unread (item 2)', () => {
  const inflated = 24 * 1024 * 1024;
  const bomb = gzipSync(Buffer.alloc(inflated, 0x20));

  test('a 24 MiB gzip bomb with a forged signature: 415, nothing inflated, nothing read', async () => {
    const budget = new BodyBudget({ maxBytes: 64 * 1024 * 1024, maxBytesPerAddress: 32 * 1024 * 1024 });
    const s = await serve({ budget });
    try {
      const call = open(s.url, { ...headersFor(bomb, FORGED), 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      call.end(bomb);
      const { status, body } = await call.answer;
      expect({ status, error: body.error }).toEqual({ status: 415, error: 'unsupported_encoding' });
      expect(body.message).toMatch(/Content-Encoding "gzip" is not accepted: send the body uncompressed/);
      // Not a byte of it was held, let alone 24 MiB.
      expect(budget.peak).toBe(0);
      expect(await s.registry.metrics()).toMatch(/gitdex_webhook_deliveries_total\{event="ping",outcome="unsupported_encoding"\} 1/);
    } finally {
      await s.close();
    }
  });

  test('correctly signed, or deflate and br: still 415, nothing published; without the header the bytes are read as sent (24 KB, not 24 MiB)', async () => {
    const budget = new BodyBudget({ maxBytes: 64 * 1024 * 1024, maxBytesPerAddress: 32 * 1024 * 1024 });
    const s = await serve({ budget });
    try {
      for (const encoding of ['gzip', 'deflate', 'br', 'x-gzip']) {
        const call = open(s.url, { ...headersFor(bomb), 'content-encoding': encoding, 'content-length': String(bomb.length) });
        call.end(bomb);
        expect((await call.answer).status).toBe(415);
      }
      expect(budget.peak).toBe(0);
      const raw = open(s.url, { ...headersFor(bomb, FORGED), 'content-length': String(bomb.length) });
      raw.end(bomb);
      expect((await raw.answer).status).toBe(401);
      expect(budget.peak).toBe(bomb.length);
      expect(budget.peak).toBeLessThan(64 * 1024);
      expect(budget.inFlight).toBe(0);
      expect(await s.published()).toBe(0);
    } finally {
      await s.close();
    }
  });
});

describe('slow bodies cannot starve deliveries (item 3)', () => {
  test('three slow bodies from one address (two chunked, one declaring 14 MB) hold at most its share; a real delivery from another address is accepted', async () => {
    const MiB = 1024 * 1024;
    const budget = new BodyBudget({ maxBytes: 4 * MiB, maxBytesPerAddress: 2 * MiB });
    // No deadline here: the budget alone must keep room for the real delivery.
    const s = await serve({ budget, timeoutMs: 600_000, minBytesPerSecond: 0 });
    try {
      const slow = [
        open(s.url, { ...headersFor(Buffer.alloc(0), FORGED), 'transfer-encoding': 'chunked' }),
        open(s.url, { ...headersFor(Buffer.alloc(0), FORGED), 'transfer-encoding': 'chunked' }),
        open(s.url, { ...headersFor(Buffer.alloc(0), FORGED), 'content-length': String(14_000_000) }),
      ];
      for (const call of slow) call.write(Buffer.alloc(MiB - 1000, 0x20));
      // Whichever pushes the address past its share is refused; the other two stall, holding what they sent.
      expect(await Promise.race(slow.map((call) => call.answer))).toMatchObject({ status: 429, body: { error: 'address_busy' }, headers: { 'retry-after': '1' } });
      expect(budget.inFlightOf('127.0.0.1')).toBeLessThanOrEqual(2 * MiB);

      const real = pingOf(800 * 1024);
      const delivery = open(s.url, { ...headersFor(real), 'content-length': String(real.length) }, '127.0.0.2');
      delivery.end(real);
      expect((await delivery.answer).status).toBe(200);
      expect(budget.peak).toBeLessThanOrEqual(4 * MiB);
      for (const call of slow) call.abort();
    } finally {
      await s.close();
    }
  });

  test('a body slower than the minimum rate is cut off with 408 and its connection closed; so is one still arriving at the deadline', async () => {
    const budget = new BodyBudget({ maxBytes: 64 * 1024, maxBytesPerAddress: 32 * 1024 });
    const slowRate = await serve({ budget, minBytesPerSecond: 1_000, graceMs: 200, timeoutMs: 600_000 });
    try {
      const call = open(slowRate.url, { ...headersFor(Buffer.alloc(0), FORGED), 'content-length': '5000' });
      call.write(Buffer.alloc(10, 0x20));
      expect(await call.answer).toMatchObject({ status: 408, body: { error: 'body_too_slow' }, headers: { connection: 'close' } });
      await call.closed;
      expect(budget.inFlight).toBe(0);
    } finally {
      await slowRate.close();
    }
    const deadline = await serve({ budget, minBytesPerSecond: 0, timeoutMs: 300 });
    try {
      const call = open(deadline.url, { ...headersFor(Buffer.alloc(0), FORGED), 'transfer-encoding': 'chunked' });
      const drip = setInterval(() => call.write(Buffer.from(' ')), 20);
      try {
        expect(await call.answer).toMatchObject({ status: 408, body: { error: 'body_timeout' } });
        await call.closed;
      } finally {
        clearInterval(drip);
      }
      expect(budget.inFlight).toBe(0);
      expect(await deadline.registry.metrics()).toMatch(/gitdex_webhook_deliveries_total\{event="ping",outcome="too_slow"\} 1/);
    } finally {
      await deadline.close();
    }
  });
});
