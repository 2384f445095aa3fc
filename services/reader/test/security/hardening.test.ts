import crypto from 'node:crypto';
import http from 'node:http';
import express, { type Request } from 'express';
import { createReaderRouter } from '../../src/app';
import { allowedHostsFor, hostAllowed, splitHost } from '../../src/http/host';
import { bearerTokens, parseReaderTokens } from '../../src/http/auth';
import { RateLimiter } from '../../src/http/rate-limit';
import { depsFor, JSON_RPC_HEADERS, rpc, serve } from './helpers';
import { createSecurityWorld, TOKENS, TOKENS_ENV, type SecurityWorld } from './world';

/** A request with any Host header (fetch does not let a caller choose it). */
function request(url: string, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('Host allow-list against DNS rebinding', () => {
  test('splitHost reads names, ports, IPv6 and trailing dots; refuses junk', () => {
    expect(splitHost('LocalHost:8080')).toEqual({ host: 'localhost', port: '8080' });
    expect(splitHost('example.com.')).toEqual({ host: 'example.com', port: null });
    expect(splitHost('[::1]:9')).toEqual({ host: '[::1]', port: '9' });
    expect(splitHost('::1')).toBeNull();
    for (const junk of ['', ' ', 'a b', 'user@host', 'host/path', 'host:port', 'host:123456', '[zz]']) expect(splitHost(junk)).toBeNull();
  });

  test('allowedHostsFor: the bound name plus loopback; none checked when bound everywhere without a list, or with *', () => {
    expect(allowedHostsFor('127.0.0.1', [])).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('gitdex.internal', ['Code.Example.com:443'])).toEqual(['localhost', '127.0.0.1', '[::1]', 'gitdex.internal', 'code.example.com:443']);
    expect(allowedHostsFor('::1', [])).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostsFor('0.0.0.0', [])).toBeUndefined();
    expect(allowedHostsFor('0.0.0.0', ['gitdex.example.com'])).toEqual(['localhost', '127.0.0.1', '[::1]', 'gitdex.example.com']);
    expect(allowedHostsFor('127.0.0.1', ['*'])).toBeUndefined();
  });

  test('hostAllowed: an entry without port allows every port, with one only that port', () => {
    const allowed = ['localhost', '127.0.0.1', '[::1]', 'code.example.com:443'];
    expect(hostAllowed('localhost:3000', allowed)).toBe(true);
    expect(hostAllowed('127.0.0.1', allowed)).toBe(true);
    expect(hostAllowed('[::1]:8080', allowed)).toBe(true);
    expect(hostAllowed('code.example.com:443', allowed)).toBe(true);
    expect(hostAllowed('code.example.com:8443', allowed)).toBe(false);
    expect(hostAllowed('evil.example.com', allowed)).toBe(false);
    expect(hostAllowed('localhost.evil.example.com', allowed)).toBe(false);
    expect(hostAllowed('127.0.0.1.nip.io', allowed)).toBe(false);
    expect(hostAllowed(undefined, allowed)).toBe(false);
  });

  test('over HTTP: /mcp and /v1 refuse other names with 403; health checks answer any', async () => {
    const world = await createSecurityWorld();
    const server = await serve(depsFor(world), { allowedHosts: allowedHostsFor('127.0.0.1', ['gitdex.example.com']) });
    const port = new URL(server.url).port;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'gitdex.example.com', 'GITDEX.example.com.:443']) {
      expect({ host, status: (await request(server.url, '/v1/repositories', { host })).status }).toEqual({ host, status: 200 });
      expect({ host, status: (await request(server.url, '/mcp', { host, ...JSON_RPC_HEADERS }, 'POST', list)).status }).toEqual({ host, status: 200 });
    }
    for (const host of ['evil.example.com', `attacker.test:${port}`, 'gitdex.example.com.evil.test', '']) {
      const rest = await request(server.url, '/v1/repositories', { host });
      expect({ host, status: rest.status }).toEqual({ host, status: host === '' ? 403 : 403 });
      expect(JSON.parse(rest.body)).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringMatching(/GITDEX_ALLOWED_HOSTS/) } });
      const mcp = await request(server.url, '/mcp', { host, ...JSON_RPC_HEADERS }, 'POST', list);
      expect(mcp.status).toBe(403);
      expect(JSON.parse(mcp.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    expect((await request(server.url, '/healthz', { host: 'evil.example.com' })).status).toBe(200);
    await server.close();
  });
});

describe('rate limits', () => {
  test('a token bucket: a burst, then one request per refill interval, with the wait in whole seconds', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now += 999;
    expect(limiter.take('a')).toBe(1);
    now += 1;
    expect(limiter.take('a')).toBe(0);
    now += 60_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0, 1]);
    const slow = new RateLimiter({ perMinute: 1, burst: 1, now: () => now });
    expect(slow.take('x')).toBe(0);
    expect(slow.take('x')).toBe(60);
    expect(() => new RateLimiter({ perMinute: 0 })).toThrow(/positive/);
    expect(new RateLimiter({ perMinute: 600 }).burst).toBe(600);
  });

  test('memory stays bounded however many callers come', () => {
    let now = 0;
    const limiter = new RateLimiter({ perMinute: 60, maxCallers: 1000, now: () => now });
    for (let i = 0; i < 20_000; i += 1) {
      now += 1;
      limiter.take(`address:10.0.${i >> 8}.${i & 255}`);
    }
    expect(limiter.size).toBeLessThanOrEqual(1000);
  });

  describe('over HTTP', () => {
    let world: SecurityWorld;
    beforeAll(async () => {
      world = await createSecurityWorld();
    });

    test('REST: 429 with Retry-After and RATE_LIMITED past the burst; each token and each address has its own bucket', async () => {
      const server = await serve(depsFor(world), { rateLimit: { perMinute: 6, burst: 2 } });
      const get = (token?: string) => fetch(`${server.url}/v1/repositories/acme/tools`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect([(await get()).status, (await get()).status]).toEqual([200, 200]);
      const limited = await get();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('10');
      expect(await limited.json()).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Rate limit reached: at most 6 requests a minute (2 at once) per token, or per address without one. Retry after 10 seconds.', retry_after_seconds: 10 },
      });
      expect([(await get(TOKENS.acmeToken)).status, (await get(TOKENS.acmeToken)).status, (await get(TOKENS.acmeToken)).status]).toEqual([200, 200, 429]);
      expect((await get(TOKENS.vaultToken)).status).toBe(200);
      // /mcp draws from the same bucket as /v1.
      const mcp = await rpc(server.url, 'tools/list', {}, { authorization: `Bearer ${TOKENS.vaultToken}` });
      expect(mcp.status).toBe(200);
      const mcpLimited = await rpc(server.url, 'tools/list', {}, { authorization: `Bearer ${TOKENS.vaultToken}` });
      expect(mcpLimited.status).toBe(429);
      expect(mcpLimited.headers.get('retry-after')).toBe('10');
      expect(mcpLimited.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/Retry after 10 seconds\.$/), data: { code: 'RATE_LIMITED', retry_after_seconds: 10 } },
      });
      expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/gitdex_reader_rate_limited_total\{caller="principal"\} 2/);
      await server.close();
    });

    test('a JSON-RPC batch draws one request per message: batched calls are limited exactly like single ones (issue 17)', async () => {
      const server = await serve(depsFor(world), { rateLimit: { perMinute: 10, burst: 10 } });
      const batch = (n: number, version = '2025-03-26', url = server.url) =>
        fetch(`${url}/mcp`, {
          method: 'POST',
          headers: { ...JSON_RPC_HEADERS, 'mcp-protocol-version': version },
          body: JSON.stringify(
            Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'suggest_paths', arguments: { repository: 'acme/tools', query: 'readme' } } })),
          ),
        });
      // Before the fix, ten batches of ten were ten requests: 100 calls against a burst of 10.
      const first = await batch(10);
      expect(first.status).toBe(200);
      expect(((await first.json()) as unknown[]).length).toBe(10);
      const second = await batch(2);
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await rpc(server.url, 'tools/list', {})).status).toBe(429);
      await server.close();
      // Batches are capped, and refused by protocol versions that dropped them.
      const fresh = await serve(depsFor(world), { rateLimit: { perMinute: 600 } });
      expect((await batch(21, '2025-03-26', fresh.url)).status).toBe(400);
      const modern = await batch(2, '2025-06-18', fresh.url);
      expect(modern.status).toBe(400);
      expect(await modern.json()).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/no JSON-RPC batches/) } });
      await fresh.close();
    });

    test('wrong tokens are throttled by address: guessing gets 429, not endless 401s', async () => {
      const server = await serve(depsFor(world), { rateLimit: { perMinute: 60, burst: 3 } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await fetch(`${server.url}/v1/repositories`, { headers: { authorization: `Bearer guess-${i}` } })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      await server.close();
    });

    test('the MCP SDK client sees a 429 with when to retry', async () => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const server = await serve(depsFor(world), { rateLimit: { perMinute: 60, burst: 3 } });
      const client = new Client({ name: 'rate', version: '1' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
        let error: unknown;
        for (let i = 0; i < 5 && error === undefined; i += 1) await client.listTools().catch((e: unknown) => (error = e));
        expect(String(error)).toMatch(/Rate limit reached.*Retry after 1 second\./);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });
});

describe('request bodies', () => {
  test('/mcp refuses bodies over the limit with 413 (JSON-RPC), before parsing them', async () => {
    const world = await createSecurityWorld();
    const server = await serve(depsFor(world), { maxBodyBytes: 64 * 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70 * 1024) } });
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: JSON_RPC_HEADERS, body: big });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: 'request bodies are limited to 65536 bytes' } });
    const defaults = await serve(depsFor(world));
    const huge = await fetch(`${defaults.url}/mcp`, { method: 'POST', headers: JSON_RPC_HEADERS, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
    await defaults.close();
    await server.close();
  });
});

describe('tokens are compared in constant time', () => {
  afterEach(() => jest.restoreAllMocks());

  test('every configured token is compared, whichever matches, and digests of equal length only', async () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const authenticate = bearerTokens(parseReaderTokens(TOKENS_ENV));
    const req = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as Request;
    for (const token of [TOKENS.publicToken, TOKENS.adminToken, 'no-such-token', 'x'.repeat(5000)]) {
      spy.mockClear();
      await authenticate(req(token));
      expect(spy).toHaveBeenCalledTimes(4);
      for (const [a, b] of spy.mock.calls) expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });
});

describe('requests express cannot read', () => {
  test('a path that is not percent-encoded UTF-8 is a 400 INVALID_ARGUMENT, mounted alone or as the product mounts it', async () => {
    const world = await createSecurityWorld();
    const alone = await serve(depsFor(world));
    const app = express();
    app.use(createReaderRouter(depsFor(world)));
    const mounted: http.Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const mountedUrl = `http://127.0.0.1:${(mounted.address() as { port: number }).port}`;
    for (const base of [alone.url, mountedUrl]) {
      for (const path of ['/v1/repositories/%ff/x', '/v1/repositories/acme/tools/files/%80/README.md', '/v1/repositories/acme/tools/tree/%c0%ae%c0%ae', '/v1/repositories/acme/%E0%A4%A']) {
        const answer = await request(base, path, { host: '127.0.0.1' });
        expect({ path, status: answer.status }).toEqual({ path, status: 400 });
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/not percent-encoded UTF-8/) } });
      }
    }
    await new Promise<void>((resolve) => mounted.close(() => resolve()));
    await alone.close();
  });
});
