import { TOOL_NAMES } from '@gitdex/contracts';
import { z } from 'zod';
import { resolveDeps } from '../../src/deps';
import { TOOLS } from '../../src/tools/registry';
import { INSTRUCTIONS } from '../../src/mcp/instructions';
import { call, failed, ok } from '../support/mcp-client';
import { stallingIndex, waitFor } from '../support/stalling-index';
import { createWorld, type World } from '../support/world';
import { TRANSPORTS } from './transports';

// Every transport hands every tools/call to the SDK's McpServer, whose handler calls the
// tool registered with it: what the caller sees is the same over each.
describe.each(TRANSPORTS)('tools/call over %s goes through the SDK', (_transport, connect) => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  test('an answer, checked by the SDK against the output schema the client was given', async () => {
    const { client, close } = await connect(world.deps);
    await client.listTools();
    expect(ok(await call(client, 'read_file', { repository: 'octo/api', path: 'README.md', end_line: 1 }))).toMatchObject({ content: '# API' });
    await close();
  });

  test("wrong arguments get gitdex's caller error, one sentence per argument, not the SDK's validation text", async () => {
    const { client, close } = await connect(world.deps);
    const error = failed(await call(client, 'read_file', { repository: 'octo/api', path: 'README.md', start_line: -3, start: 1 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.text).toMatch(/unknown argument "start": this tool takes repository, path, ref, start_line, end_line/);
    expect(error.text).toMatch(/start_line: a whole line number, 1 or more .*\(got -3\)/);
    expect(error.text).not.toMatch(/Input validation error/);
    await close();
  });

  test("an unknown tool is refused by the SDK's handler, naming it", async () => {
    const { client, close } = await connect(world.deps);
    const result = await call(client, 'write_file', {});
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/Tool write_file not found/) }] });
    await close();
  });

  test("tools/list advertises each tool's own input contract", async () => {
    const { client, close } = await connect(world.deps);
    const { tools } = await client.listTools();
    for (const name of TOOL_NAMES) {
      expect({ name, schema: tools.find((t) => t.name === name)?.inputSchema }).toEqual({ name, schema: z.toJSONSchema(TOOLS[name].input, { target: 'draft-7', io: 'input' }) });
    }
    expect(client.getInstructions()).toBe(INSTRUCTIONS);
    await close();
  });

  /** A reader on an index whose calls never answer (the test ends first), with the signal each call was given. */
  const hanging = () => {
    const stalling = stallingIndex(world.index, 0);
    const deps = resolveDeps({ index: stalling.index, publisher: world.publisher, limits: { timeoutMs: 600_000 } });
    return { deps, stalling, signals: () => stalling.calls.map((c) => c.signal) };
  };

  test('closing the connection stops a call in flight', async () => {
    const { deps, stalling, signals } = hanging();
    const { client, close } = await connect(deps);
    const pending = client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md' } }).catch((error: unknown) => error);
    await waitFor(() => signals().length > 0);
    await close();
    await waitFor(() => signals().every((signal) => signal?.aborted === true));
    expect(await pending).toBeInstanceOf(Error);
    stalling.release();
  });
});

// Over stdio and in memory a request can be cancelled on a connection that stays open. Stateless
// HTTP has no such connection (a notifications/cancelled is a POST of its own, to a new server):
// there a caller stops a call by closing its request, tested above.
describe.each(TRANSPORTS.filter(([name]) => name !== 'Streamable HTTP'))('notifications/cancelled over %s', (_transport, connect) => {
  test('stops the call in flight', async () => {
    const world = await createWorld();
    const stalling = stallingIndex(world.index, 0);
    const deps = resolveDeps({ index: stalling.index, publisher: world.publisher, limits: { timeoutMs: 600_000 } });
    const { client, close } = await connect(deps);
    const stop = new AbortController();
    const pending = client.callTool({ name: 'list_files', arguments: { repository: 'octo/api' } }, undefined, { signal: stop.signal }).catch((error: unknown) => error);
    await waitFor(() => stalling.calls.length > 0);
    stop.abort(new Error('the user pressed stop'));
    await waitFor(() => stalling.calls.every((c) => c.signal?.aborted === true));
    expect(await pending).toBeInstanceOf(Error);
    stalling.release();
    await close();
  });
});
