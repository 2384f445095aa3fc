import { PortError, type DeadLetterStore, type EventEnvelope, type Source } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { DEFAULT_INDEX_REF_OPTIONS } from '../src/index-ref';
import { OneAtATime } from '../src/one-at-a-time';
import { RefSelection } from '../src/ref-selection';
import { createBatchHandler } from '../src/worker';

function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('OneAtATime', () => {
  it('runs the work of one key in arrival order, one at a time, and other keys beside it', async () => {
    const queue = new OneAtATime();
    const first = gate();
    const log: string[] = [];
    const a1 = queue.run('a', async () => (log.push('a1 start'), await first.opened, log.push('a1 end'), 1));
    const a2 = queue.run('a', async () => (log.push('a2 start'), 2));
    const b1 = queue.run('b', async () => (log.push('b1 start'), 3));
    await turn();
    expect(log).toEqual(['a1 start', 'b1 start']);
    first.open();
    expect(await Promise.all([a1, a2, b1])).toEqual([1, 2, 3]);
    expect(log).toEqual(['a1 start', 'b1 start', 'a1 end', 'a2 start']);
    expect(queue.size).toBe(0);
  });

  it('a failure reaches its caller and does not stop the next work of the key', async () => {
    const queue = new OneAtATime();
    const failing = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });
});

describe('the batch handler, shared by the group members of a process', () => {
  it('handles a redelivered event of a repository only after the first delivery is done', async () => {
    const firstCall = gate();
    let calls = 0;
    // GitHub answering the first call only when the test says so, then refusing (the outcome does not matter here).
    const source: Source = new Proxy({} as Source, {
      get: () => async () => {
        calls += 1;
        if (calls === 1) await firstCall.opened;
        throw new PortError('INVALID', 'not found', { retriable: false });
      },
    });
    const deadLetters: DeadLetterStore = { add: async () => undefined, list: async () => [], replay: async () => 0 };
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    const handler = createBatchHandler({
      index,
      source,
      deadLetters,
      refs: new RefSelection(['default']),
      options: DEFAULT_INDEX_REF_OPTIONS,
      now: () => new Date(0),
      sleep: async () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const envelope: EventEnvelope = {
      event: { kind: 'backfill', eventId: 'e-1', repository: { id: 7, fullName: 'o/r' }, receivedAt: new Date(0).toISOString(), reason: 'cli' },
      headers: {},
      position: 'test/0/0',
    };
    const first = handler([envelope], { heartbeat: async () => undefined });
    const again = handler([envelope], { heartbeat: async () => undefined });
    for (let i = 0; i < 20; i += 1) await turn();
    expect(calls).toBe(1);
    firstCall.open();
    await Promise.all([first, again]);
    expect(calls).toBe(2);
  });
});
