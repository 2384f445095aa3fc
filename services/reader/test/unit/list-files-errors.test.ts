import type { ListFilesOutput } from '@gitdex/contracts';
import { PortError, type IndexStore } from '@gitdex/ports';
import { resolveDeps } from '../../src/deps';
import { call, connectInMemory, failed, ok } from '../support/mcp-client';
import { createWorld } from '../support/world';

/**
 * The world's index, going down once it has answered `answered` more repository lookups after
 * `goDown()`: a later page's own lookup of the repository succeeds, the folder check after it
 * meets an unreachable engine.
 */
function outageAfterLookups(index: IndexStore, answered: number) {
  let left = Number.POSITIVE_INFINITY;
  const proxied = new Proxy(index, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'lookupForRead' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (left <= 0) return Promise.reject(new PortError('UNAVAILABLE', 'connect ECONNREFUSED 127.0.0.1:9200', { retriable: true }));
        left -= 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    index: proxied,
    goDown: () => void (left = answered),
    comeBack: () => void (left = Number.POSITIVE_INFINITY),
  };
}

describe('list_files when the index fails while it checks a cursor', () => {
  test('an index outage is answered as the index being unavailable, not as a bad cursor', async () => {
    const world = await createWorld();
    const faulty = outageAfterLookups(world.index, 1);
    const { client, close } = await connectInMemory(resolveDeps({ index: faulty.index, publisher: world.publisher }));
    const list = (args: Record<string, unknown>) => call(client, 'list_files', { repository: 'octo/api', ...args });
    const first = ok<ListFilesOutput>(await list({ folder: 'src', limit: 2 }));
    expect(first.next_cursor).not.toBeNull();

    faulty.goDown();
    const error = failed(await list({ folder: 'src', limit: 2, cursor: first.next_cursor }));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.text).toMatch(/The index is unavailable right now/);

    faulty.comeBack();
    // The same cursor still works once the index answers: it was never the caller's fault.
    expect(ok<ListFilesOutput>(await list({ folder: 'src', limit: 2, cursor: first.next_cursor })).offset).toBe(2);
    await close();
  });

  test('a folder that does not match the cursor is still the caller error it always was', async () => {
    const world = await createWorld();
    const { client, close } = await connectInMemory(world.deps);
    const first = ok<ListFilesOutput>(await call(client, 'list_files', { repository: 'octo/api', folder: 'src', limit: 2 }));
    for (const folder of ['docs', 'no/such/folder']) {
      const error = failed(await call(client, 'list_files', { repository: 'octo/api', folder, limit: 2, cursor: first.next_cursor }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.text).toMatch(/cursor: it continues the listing of folder src; pass that folder or leave folder out/);
    }
    await close();
  });
});
