import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { createReaderApp } from '../../src/app';
import { createMcpServer } from '../../src/mcp/server';
import { createWorld, type World } from '../support/world';
import { TOOL_CALL_CASES } from '../support/tool-calls';

// Counted: a plain tools/call must not build an McpServer.
jest.mock('../../src/mcp/server', () => {
  const actual: typeof import('../../src/mcp/server') = jest.requireActual('../../src/mcp/server');
  return { ...actual, createMcpServer: jest.fn(actual.createMcpServer) };
});
const built = createMcpServer as jest.MockedFunction<typeof createMcpServer>;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** The last protocol version with JSON-RPC batches: a batch of one always goes through the SDK's server and transport. */
const BATCH_VERSION = '2025-03-26';

describe('tools/call over Streamable HTTP without a server per request', () => {
  let world: World;
  let url: string;
  let server: Server;
  beforeAll(async () => {
    world = await createWorld();
    const app = createReaderApp(world.deps, { registry: new Registry() });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => built.mockClear());

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };

  test.each(TOOL_CALL_CASES.map((call, i) => [call.name, i, call] as const))('%s (#%d): the same JSON-RPC answer as through the SDK server, and no server built for it', async (_name, i, call) => {
    const request = { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: call };
    // Once before, so that what a first call changes (a backfill queued) is the same for both.
    await post(request);
    built.mockClear();
    const plain = await post(request, { 'mcp-protocol-version': '2025-06-18' });
    expect(built).not.toHaveBeenCalled();
    const viaSdk = await post([request], { 'mcp-protocol-version': BATCH_VERSION });
    expect(built).toHaveBeenCalledTimes(1);
    expect(plain.status).toBe(200);
    expect(plain.type).toMatch(/^application\/json/);
    // The SDK answers a batch of one with the one answer, not an array.
    expect(plain.body).toEqual(viaSdk.body);
  });

  test('anything else goes to the SDK: other methods, unknown tools, missing Accept types, unknown protocol versions', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { repository: 'octo/api', path: 'src/index.ts' } } };
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
    const unknown = await post({ ...call, params: { name: 'drop_tables', arguments: {} } });
    expect(unknown.body).toMatchObject({ error: { code: -32602 } });
    expect((await post(call, { accept: 'application/json' })).status).toBe(406);
    expect((await post(call, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await post({ ...call, params: { ...call.params, arguments: 'path=a' } })).body).toMatchObject({ error: {} });
    expect(built).toHaveBeenCalledTimes(5);
  });
});
