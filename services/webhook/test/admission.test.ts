import { recordingLog } from '../../../test/support/recording-log';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { SqliteEventLog } from '@gitdex/sqlite';
import { createWebhookApp } from '../src/app';
import { sign } from '../src/signature';
import type { AdmissionOptions } from '../src/admission';
import type { WebhookBodyOptions } from '../src/body';

const SECRET = 'a-webhook-secret-of-some-length';

interface Served {
  url: URL;
  registry: Registry;
  /** Resolves once the server has taken in `count` requests and run their middleware as far as it goes without their bodies. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

async function serve(admission: Partial<AdmissionOptions> = {}, body: WebhookBodyOptions = {}): Promise<Served> {
  const log = new SqliteEventLog({ file: ':memory:', log: recordingLog() });
  const registry = new Registry();
  const app = createWebhookApp({ secrets: [SECRET], publisher: log, registry, admission, body });
  const server: http.Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  let requests = 0;
  server.on('request', () => void (requests += 1));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`),
    registry,
    received: async (count) => {
      while (requests < count) await once(server, 'request');
      // The app's handler ran first (it is the server's first listener); its next steps are a few turns of the loop away.
      for (let turn = 0; turn < 10; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await log.close();
    },
  };
}

/** Sends the headers and only `sent` bytes of a body declared `declared` long; resolves with the status as soon as one comes. */
function partial(url: URL, headers: Record<string, string>, declared: number, sent = 10, localAddress = '127.0.0.1'): { status: Promise<number>; finish(rest: Buffer): void; abort(): void } {
  const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-length': String(declared), ...headers }, agent: false, localAddress });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.write(Buffer.alloc(sent, 0x20));
  return { status, finish: (rest) => req.end(rest), abort: () => req.destroy() };
}

const ping = Buffer.from(JSON.stringify({ zen: 'hi', hook_id: 1 }));

describe('webhook admission: an unsigned caller costs no memory and cannot crowd out GitHub (issue 17, items 3 and 4)', () => {
  test('a missing or malformed X-Hub-Signature-256 is refused before the body is read', async () => {
    const s = await serve();
    try {
      for (const signature of [undefined, 'sha256=' + 'a'.repeat(63), 'sha256=' + 'a'.repeat(64) + 'junk', 'sha256=' + 'A'.repeat(64), 'sha1=' + 'a'.repeat(40)]) {
        // 20 MB declared, 10 bytes sent: the answer must not wait for the rest.
        const call = partial(s.url, { 'x-github-event': 'push', 'x-github-delivery': 'd', ...(signature ? { 'x-hub-signature-256': signature } : {}) }, 20_000_000);
        expect(await call.status).toBe(401);
        call.abort();
      }
    } finally {
      await s.close();
    }
  });

  test('bytes in flight (as read) are bounded across concurrent requests; they are released when a request ends', async () => {
    const s = await serve({}, { maxBytesInFlight: 1000, maxBytesPerAddress: 1000 });
    try {
      const headers = { 'x-github-event': 'ping', 'x-github-delivery': 'd1', 'x-hub-signature-256': sign(Buffer.alloc(800, 0x20), SECRET) };
      const first = partial(s.url, headers, 800, 700);
      await s.received(1);
      const second = partial(s.url, headers, 800, 400, '127.0.0.2');
      expect(await second.status).toBe(503);
      second.abort();
      first.finish(Buffer.alloc(100, 0x20));
      expect(await first.status).toBe(400); // signed, but not JSON: read and answered
      const third = partial(s.url, { ...headers, 'x-hub-signature-256': sign(ping, SECRET) }, ping.length, 0, '127.0.0.2');
      third.finish(ping);
      expect(await third.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('repeated 401s from one address are throttled; the label of an unknown event is "unknown"', async () => {
    const s = await serve({ refusalsPerMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const call = partial(s.url, { 'x-github-event': `evil-${i}`, 'x-github-delivery': 'd', 'x-hub-signature-256': sign(ping, 'wrong secret') }, ping.length, 0);
        call.finish(ping);
        statuses.push(await call.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const metrics = await s.registry.metrics();
      expect(metrics).not.toMatch(/evil-/);
      expect(metrics).toMatch(/gitdex_webhook_deliveries_total\{event="unknown",outcome="unauthorized"\} 3/);
      expect(metrics).toMatch(/gitdex_webhook_deliveries_total\{event="unknown",outcome="throttled"\} 2/);
    } finally {
      await s.close();
    }
  });
});
