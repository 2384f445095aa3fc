import { gzipSync } from 'node:zlib';
import { BodyBudget } from '@gitdex/observability';
import { slowRequest } from '../../../../test/support/slow-request';
import { depsFor, JSON_RPC_HEADERS, serve, type Served } from '../security/helpers';
import { createSecurityWorld, type SecurityWorld } from '../security/world';
import type { ReaderBodyOptions } from '../../src/http/body';

/**
 * The reader's request bodies cost what was read, never what was declared or what it would
 * inflate to; slow bodies from one address cannot take the budget from another, and a body
 * slower than the minimum rate is cut off (issue 40, items 2 and 3). Over real HTTP.
 */
let world: SecurityWorld;
beforeAll(async () => {
  world = await createSecurityWorld();
});

const KiB = 1024;
const toolsList = (pad = 0) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { pad: ' '.repeat(pad) } } });

async function withReader(body: ReaderBodyOptions, run: (server: Served, url: URL) => Promise<void>): Promise<void> {
  const server = await serve(depsFor(world), { body });
  try {
    await run(server, new URL(`${server.url}/mcp`));
  } finally {
    await server.close();
  }
}

describe('/mcp: a compressed body is refused unread (item 2)', () => {
  test('a gzip bomb (24 MiB inflated) and a small gzip call: 415 JSON-RPC errors, not a byte held', async () => {
    const budget = new BodyBudget({ maxBytes: 32 * 1024 * KiB, maxBytesPerAddress: 4 * 1024 * KiB });
    await withReader({ budget }, async (_server, url) => {
      for (const body of [gzipSync(toolsList(24 * 1024 * KiB)), gzipSync(toolsList())]) {
        const call = slowRequest(url, { headers: { ...JSON_RPC_HEADERS, 'content-encoding': 'gzip', 'content-length': String(body.length) } });
        call.end(body);
        const answer = await call.answer;
        expect(answer.status).toBe(415);
        expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
        expect(answer.body.error.message).toMatch(/Content-Encoding "gzip" is not accepted/);
      }
      expect(budget.peak).toBe(0);
    });
  });
});

describe('/mcp: slow bodies (item 3)', () => {
  test('three slow bodies from one address hold at most its share; a call from another address is answered', async () => {
    const budget = new BodyBudget({ maxBytes: 96 * KiB, maxBytesPerAddress: 48 * KiB });
    await withReader({ budget, maxBytes: 32 * KiB, timeoutMs: 600_000, minBytesPerSecond: 0 }, async (_server, url) => {
      const slow = [0, 1, 2].map(() => slowRequest(url, { headers: { ...JSON_RPC_HEADERS } }));
      for (const call of slow) call.write(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"pad":"${' '.repeat(20 * KiB)}`);
      const refused = await Promise.race(slow.map((call) => call.answer));
      expect(refused).toMatchObject({ status: 429, body: { jsonrpc: '2.0', error: { code: -32000 } }, headers: { 'retry-after': '1' } });
      expect(budget.inFlightOf('127.0.0.1')).toBeLessThanOrEqual(48 * KiB);

      const real = slowRequest(url, { headers: { ...JSON_RPC_HEADERS }, localAddress: '127.0.0.2' });
      real.end(toolsList(10 * KiB));
      const answer = await real.answer;
      expect(answer.status).toBe(200);
      expect(answer.body.result.tools.length).toBeGreaterThan(0);
      for (const call of slow) call.abort();
    });
  });

  test('a body slower than the minimum rate is cut off (408) and its connection closed; so is one still arriving at the deadline', async () => {
    const budget = new BodyBudget({ maxBytes: 96 * KiB, maxBytesPerAddress: 48 * KiB });
    await withReader({ budget, minBytesPerSecond: 1_000, graceMs: 200, timeoutMs: 600_000 }, async (_server, url) => {
      const call = slowRequest(url, { headers: { ...JSON_RPC_HEADERS, 'content-length': '5000' } });
      call.write('{"jsonrpc":');
      expect(await call.answer).toMatchObject({ status: 408, body: { jsonrpc: '2.0', error: { code: -32000 } }, headers: { connection: 'close' } });
      expect((await call.answer).body.error.message).toMatch(/slower than 1000 bytes a second/);
      await call.closed;
      expect(budget.inFlight).toBe(0);
    });
    await withReader({ budget, minBytesPerSecond: 0, timeoutMs: 300 }, async (_server, url) => {
      const call = slowRequest(url, { headers: { ...JSON_RPC_HEADERS } });
      const drip = setInterval(() => call.write(' '), 20);
      try {
        expect(await call.answer).toMatchObject({ status: 408, body: { error: { message: 'the request body did not arrive within 0.3 s' } } });
        await call.closed;
      } finally {
        clearInterval(drip);
      }
      expect(budget.inFlight).toBe(0);
    });
  });
});

describe('/v1 takes no body', () => {
  test('a GET carrying a body (never ending, or compressed) is refused unread and its connection closed; without one it is answered', async () => {
    await withReader({}, async (server) => {
      const url = new URL(`${server.url}/v1/repositories`);
      const endless = slowRequest(url, { method: 'GET', headers: { 'transfer-encoding': 'chunked' } });
      endless.write('x');
      expect(await endless.answer).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ARGUMENT' } }, headers: { connection: 'close' } });
      expect((await endless.answer).body.error.message).toMatch(/takes no request body/);
      await endless.closed;
      const bomb = gzipSync(Buffer.alloc(24 * 1024 * KiB));
      const compressed = slowRequest(url, { method: 'GET', headers: { 'content-encoding': 'gzip', 'content-length': String(bomb.length) } });
      compressed.end(bomb);
      expect((await compressed.answer).status).toBe(400);
      const plain = slowRequest(url, { method: 'GET', headers: { 'content-length': '0' } });
      plain.end();
      expect((await plain.answer).status).toBe(200);
    });
  });
});
