import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { resolveDeps, type ReaderDeps } from '../../src/deps';
import { connectMcpServer } from '../../src/mcp/connect';
import { createMcpServer } from '../../src/mcp/server';
import { stallingIndex, waitFor } from '../support/stalling-index';
import { createWorld, type World } from '../support/world';
import { TOOL_CALL_CASES } from '../support/tool-calls';

/** The raw JSON-RPC end of a transport pair: what a client sends and every message the server answers. */
async function rawPeer(connect: (serverSide: InMemoryTransport) => Promise<{ close(): Promise<void> }>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  clientSide.onmessage = (message) => received.push(message);
  await clientSide.start();
  const server = await connect(serverSide);
  const answerTo = async (id: number): Promise<JSONRPCMessage> => {
    const answered = () => received.find((m) => 'id' in m && m.id === id);
    await waitFor(() => answered() !== undefined);
    return answered() as JSONRPCMessage;
  };
  return { send: (message: JSONRPCMessage) => clientSide.send(message), answerTo, received, close: () => server.close() };
}

/** The SDK's path alone: the server connected as the HTTP fallback connects it. */
const sdkOnly = (deps: ReaderDeps) => (serverSide: InMemoryTransport) => {
  const server = createMcpServer(deps, { transport: 'memory' });
  return server.connect(serverSide).then(() => server);
};

/** The direct path alone: the SDK's tools/call handler removed, so an answer can only come from the direct one. */
const directOnly = (deps: ReaderDeps) => async (serverSide: InMemoryTransport) => {
  const server = await connectMcpServer(deps, serverSide, { transport: 'memory' });
  server.server.removeRequestHandler('tools/call');
  return server;
};

describe('tools/call answered on the transport, without the SDK server (stdio, in memory)', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  test.each(TOOL_CALL_CASES.map((call, i) => [call.name, i, call] as const))('%s (#%d): the same JSON-RPC answer as through the SDK server', async (_name, i, call) => {
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: call };
    const sdk = await rawPeer(sdkOnly(world.deps));
    const direct = await rawPeer(directOnly(world.deps));
    // Once before, so that what a first call changes (a backfill queued) is the same for both.
    await sdk.send(request);
    await sdk.answerTo(i + 1);
    sdk.received.length = 0;
    await sdk.send(request);
    await direct.send(request);
    expect(await direct.answerTo(i + 1)).toEqual(await sdk.answerTo(i + 1));
    await sdk.close();
    await direct.close();
  });

  test('anything else still goes to the SDK: other methods, unknown tools, arguments that are not an object', async () => {
    const peer = await rawPeer((serverSide) => connectMcpServer(world.deps, serverSide, { transport: 'memory' }));
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(await peer.answerTo(1)).toMatchObject({ result: { tools: expect.any(Array) } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'drop_tables', arguments: {} } });
    expect(await peer.answerTo(2)).toMatchObject({ error: { code: -32602, message: expect.stringContaining('drop_tables') } });
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: 'path=a' } });
    expect(await peer.answerTo(3)).toMatchObject({ error: { code: expect.any(Number) } });
    await peer.close();
  });

  /** An index whose calls never answer (the test ends first), with the signal each call was given. */
  const hangingDeps = () => {
    const hanging = stallingIndex(world.index, 0);
    return { deps: resolveDeps({ index: hanging.index, publisher: world.publisher, limits: { timeoutMs: 600_000 } }), signals: () => hanging.calls.map((c) => c.signal) };
  };

  test('notifications/cancelled stops the call in flight, and a cancelled call gets no answer', async () => {
    const hanging = hangingDeps();
    const peer = await rawPeer(directOnly(hanging.deps));
    await peer.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_files', arguments: { repository: 'octo/api' } } });
    await waitFor(() => hanging.signals().length > 0);
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'the user pressed stop' } });
    await waitFor(() => hanging.signals().every((signal) => signal?.aborted === true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(peer.received.filter((m) => 'id' in m && m.id === 7)).toEqual([]);
    await peer.close();
  });

  test('a call in flight stops when the connection closes', async () => {
    const hanging = hangingDeps();
    const peer = await rawPeer(directOnly(hanging.deps));
    await peer.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md' } } });
    await waitFor(() => hanging.signals().length > 0);
    await peer.close();
    await waitFor(() => hanging.signals().every((signal) => signal?.aborted === true));
  });
});
