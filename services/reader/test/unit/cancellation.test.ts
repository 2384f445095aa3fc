import { resolveDeps } from '../../src/deps';
import { failed, call, connectInMemory, ok } from '../support/mcp-client';
import { stallingIndex, waitFor } from '../support/stalling-index';
import { createWorld } from '../support/world';

const TOOL_CALLS: [string, Record<string, unknown>][] = [
  ['read_file', { repository: 'octo/api', path: 'src/server/routes.ts' }],
  ['list_files', { repository: 'octo/api', depth: 3 }],
  ['repository_overview', { repository: 'octo/api' }],
  ['repositories_state', {}],
  ['suggest_paths', { repository: 'octo/api', query: 'src/server/rotes.ts' }],
  ['search_code', { query: 'server', repository: 'octo/api' }],
  ['find_symbol', { name: 'start', repository: 'octo/api' }],
  ['file_outline', { repository: 'octo/api', path: 'src/index.ts' }],
  ['find_references', { name: 'start', repository: 'octo/api' }],
];

describe('a tool call whose deadline passes stops its work (issue 17, item 2)', () => {
  test.each(TOOL_CALLS)('%s makes no index call after its timeout answer, and the call in flight is told to stop', async (tool, args) => {
    const world = await createWorld();
    const slow = stallingIndex(world.index, 1);
    const { client, close } = await connectInMemory(resolveDeps({ index: slow.index, publisher: world.publisher, limits: { timeoutMs: 200 } }));

    const error = failed(await call(client, tool, args));
    slow.state.answered = true;
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.text).toBe('The index is unavailable right now (it did not answer within 200 ms). Retry in a few seconds.');

    const stalledCall = slow.calls[1]!;
    expect(stalledCall).toBeDefined();
    // The adapter got the call's signal, aborted at the deadline: an Elasticsearch request is aborted, SQLite stops before its next statement.
    expect(stalledCall.signal?.aborted).toBe(true);

    slow.release();
    await slow.settled();
    expect(slow.calls.filter((c) => c.afterAnswer)).toEqual([]);
    await close();
  });

  test('a successful call answers exactly as without the deadline machinery', async () => {
    const world = await createWorld();
    const slow = stallingIndex(world.index, Number.MAX_SAFE_INTEGER);
    const { client, close } = await connectInMemory(resolveDeps({ index: slow.index, publisher: world.publisher }));
    const plain = await connectInMemory(world.deps);
    for (const [tool, args] of TOOL_CALLS) {
      expect(ok(await call(client, tool, args))).toEqual(ok(await call(plain.client, tool, args)));
    }
    // Every read the tools made carried the call's signal, not aborted.
    const reads = slow.calls.filter((c) => c.signal !== undefined);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => !c.signal!.aborted)).toBe(true);
    await plain.close();
    await close();
  });
});

describe('a cancelled MCP request stops its work', () => {
  test.each(TOOL_CALLS)('%s: notifications/cancelled aborts the index call in flight and no further one starts', async (tool, args) => {
    const world = await createWorld();
    const slow = stallingIndex(world.index, 1);
    // A deadline far away: only the cancellation can stop this call.
    const { client, close } = await connectInMemory(resolveDeps({ index: slow.index, publisher: world.publisher, limits: { timeoutMs: 600_000 } }));

    const controller = new AbortController();
    const pending = client.callTool({ name: tool, arguments: args }, undefined, { signal: controller.signal });
    pending.catch(() => undefined);
    await waitFor(() => slow.calls.length > 1);
    controller.abort(new Error('the user pressed stop'));
    await expect(pending).rejects.toThrow(/the user pressed stop/);

    const stalledCall = slow.calls[1]!;
    // The server got the cancellation and aborted the call's signal, which the adapter holds.
    await waitFor(() => stalledCall.signal?.aborted === true);
    slow.state.answered = true;

    slow.release();
    await slow.settled();
    expect(slow.calls.filter((c) => c.afterAnswer)).toEqual([]);
    await close();
  });
});

describe('a resource read stops its work at the deadline too', () => {
  test('resources/read of a file answers the timeout and makes no index call after it', async () => {
    const world = await createWorld();
    const slow = stallingIndex(world.index, 1);
    const { client, close } = await connectInMemory(resolveDeps({ index: slow.index, publisher: world.publisher, limits: { timeoutMs: 200 } }));

    await expect(client.readResource({ uri: 'gitdex://octo/api/src/server/routes.ts' })).rejects.toThrow(/it did not answer within 200 ms/);
    slow.state.answered = true;
    expect(slow.calls[1]?.signal?.aborted).toBe(true);

    slow.release();
    await slow.settled();
    expect(slow.calls.filter((c) => c.afterAnswer)).toEqual([]);
    await close();
  });
});
