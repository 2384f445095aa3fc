import { TOOL_NAMES } from '@gitdex/contracts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import type { ListFilesOutput, ReadFileOutput } from '@gitdex/contracts';
import { createReaderApp, type ReaderHttpOptions } from '../../src/app';
import { bearerTokens } from '../../src/http/auth';
import { createWorld, type World } from '../support/world';
import { faulty } from '../support/faults';
import { resolveDeps } from '../../src/deps';

async function listen(world: World, options: Partial<ReaderHttpOptions> = {}, deps = world.deps): Promise<{ url: string; registry: Registry; close: () => Promise<void> }> {
  const registry = new Registry();
  const app = createReaderApp(deps, { registry, ...options });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, registry, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('MCP over Streamable HTTP', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  test('an SDK client lists and calls the tools; metrics count calls by tool and outcome', async () => {
    const server = await listen(world);
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(TOOL_NAMES.length);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema !== undefined)).toBe(true);
    const read = await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'src/index.ts' } });
    expect((read.structuredContent as ReadFileOutput).content).toContain('start();');
    const missing = await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'nope.ts' } });
    expect(missing.isError).toBe(true);
    await client.close();

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/gitdex_reader_tool_calls_total\{tool="read_file",transport="http",outcome="ok"\} 1/);
    expect(metrics).toMatch(/gitdex_reader_tool_calls_total\{tool="read_file",transport="http",outcome="NOT_FOUND"\} 1/);
    expect(metrics).toMatch(/gitdex_reader_tool_duration_seconds_bucket\{le="0.05",tool="read_file",transport="http"\}/);
    await server.close();
  });

  test('32 concurrent clients each page through a listing and read files', async () => {
    const server = await listen(world);
    const clients = await Promise.all(Array.from({ length: 32 }, () => connect(server.url)));
    // Every client gets the whole listing and its own line; how long that takes is the bench's to measure.
    const results = await Promise.all(
      clients.map(async (client, i) => {
        const paths: string[] = [];
        let cursor: string | null = null;
        do {
          const page = (await client.callTool({ name: 'list_files', arguments: { repository: 'octo/api', depth: 3, limit: 4, ...(cursor ? { cursor } : {}) } })).structuredContent as ListFilesOutput;
          paths.push(...page.entries.map((e) => e.path));
          cursor = page.next_cursor;
        } while (cursor);
        const read = (await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'long.txt', start_line: i + 1, end_line: i + 1 } })).structuredContent as ReadFileOutput;
        expect(read.content).toBe(`line ${i + 1}`);
        return paths;
      }),
    );
    for (const paths of results) expect(paths).toEqual(results[0]);
    expect(new Set(results[0]).size).toBe(results[0]!.length);
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
    // 32 clients' worth of work on two shared cores: only a hang should fail this, not a busy machine.
  }, 120_000);

  test('Origin: none, localhost and configured origins pass; others get 403 (DNS rebinding)', async () => {
    const server = await listen(world, { allowedOrigins: ['https://ide.example.com'] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const post = (origin?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...(origin ? { origin } : {}) },
        body,
      });
    expect((await post()).status).toBe(200);
    expect((await post('http://localhost:6274')).status).toBe(200);
    const allowed = await post('https://ide.example.com');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://ide.example.com');
    const refused = await post('https://evil.example.com');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Origin https:\/\/evil.example.com is not allowed/);
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000' } });
    expect(preflight.status).toBe(204);
    await server.close();
  });

  test('bearer tokens: a missing or wrong token is 401 with a challenge; a right one reads', async () => {
    const server = await listen(world, { authenticate: bearerTokens([{ token: 'reader-token', principal: { id: 'ci' } }]) });
    await expect(connect(server.url)).rejects.toThrow();
    const refused = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="gitdex"');
    const client = await connect(server.url, { authorization: 'Bearer reader-token' });
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    await client.close();
    expect((await fetch(`${server.url}/v1/repositories`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/repositories`, { headers: { authorization: 'Bearer reader-token' } })).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.close();
  });

  test('transport refusals are JSON-RPC errors: GET and DELETE (stateless), bodies that are not JSON', async () => {
    const server = await listen(world);
    const get = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as { error: { message: string } }).error.message).toMatch(/stateless/);
    expect((await fetch(`${server.url}/mcp`, { method: 'DELETE' })).status).toBe(405);
    const garbage = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{not json' });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    await server.close();
  });

  test('/healthz, and /readyz following the index', async () => {
    const healthy = await listen(world);
    expect(await (await fetch(`${healthy.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { index: 'ok' } });
    await healthy.close();
    const down = await listen(world, {}, resolveDeps({ index: faulty(world.index, 'unavailable') }));
    const readyz = await fetch(`${down.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect((await fetch(`${down.url}/healthz`)).status).toBe(200);
    await down.close();
  });
});
