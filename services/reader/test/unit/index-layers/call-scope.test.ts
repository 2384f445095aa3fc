import type { IndexCallOptions } from '@gitdex/ports';
import { CallScopedIndex } from '../../../src/index-layers/call-scope';
import { composeIndex } from '../../../src/index-layers/compose';
import { ForwardingIndex } from '../../../src/index-layers/forwarding-index';
import type { ReaderIndex } from '../../../src/index-layers/reader-index';
import { countedIndex, currentSnapshot } from '../../support/counted-index';
import { stallingIndex, waitFor } from '../../support/stalling-index';

/** Every method a layer forwards: the port's reads and content search (ping takes no options). */
const METHODS = Object.getOwnPropertyNames(ForwardingIndex.prototype).filter((name) => !['constructor', 'pass', 'ping'].includes(name)) as (keyof ReaderIndex)[];

/** An index that records the last argument of each call and answers at once (or never, when `hang`). */
function recordingIndex(hang = false) {
  const seen = new Map<string, unknown[]>();
  const index = new Proxy({} as ReaderIndex, {
    get:
      (_target, method: string) =>
      (...args: unknown[]) => {
        seen.set(method, args);
        return hang ? new Promise(() => undefined) : Promise.resolve(null);
      },
  });
  return { index, seen };
}

type AnyMethod = (...args: unknown[]) => Promise<unknown>;
const callOf = (index: ReaderIndex, method: keyof ReaderIndex): Promise<unknown> => {
  const fn = Reflect.get(index, method) as AnyMethod;
  // Every argument before the options left undefined: the layer only carries them.
  return fn.apply(
    index,
    Array.from({ length: fn.length - 1 }, () => undefined),
  );
};

describe('CallScopedIndex: the one way a call cancels its index calls', () => {
  it('covers every read and search method of the port: 18 of IndexReads, 4 of ContentSearch, 4 of SymbolReads', () => {
    expect(METHODS).toHaveLength(26);
  });

  it.each(METHODS)("%s reaches the index below with the call's signal as its last argument, IndexCallOptions", async (method) => {
    const { index, seen } = recordingIndex();
    const signal = new AbortController().signal;
    await callOf(new CallScopedIndex(index, signal), method);
    const args = seen.get(method) as unknown[];
    const fn = Reflect.get(ForwardingIndex.prototype, method) as AnyMethod;
    expect(args).toHaveLength(fn.length);
    expect(args[args.length - 1]).toEqual({ signal } satisfies IndexCallOptions);
  });

  it('starts no call once the signal is aborted, and abandons one in flight at once with its reason', async () => {
    const { index, seen } = recordingIndex(true);
    const controller = new AbortController();
    const scoped = new CallScopedIndex(index, controller.signal);
    const inFlight = scoped.listRepositories();
    const reason = new Error('deadline (test)');
    controller.abort(reason);
    await expect(inFlight).rejects.toBe(reason);
    await expect(scoped.getRepository(1)).rejects.toBe(reason);
    await expect(scoped.ping()).rejects.toBe(reason);
    expect([...seen.keys()]).toEqual(['listRepositories']);
  });

  it('leaves a load it shares with another call without cancelling it for that call', async () => {
    const { index } = await countedIndex();
    const slow = stallingIndex(index, 1);
    const shared = composeIndex(slow.index, { metadataTtlMs: 60_000 });
    const snapshot = await currentSnapshot(shared);
    const leaving = new AbortController();
    const staying = new AbortController();
    const mine = new CallScopedIndex(shared, leaving.signal).getFile(snapshot, 'src/a.ts');
    const theirs = new CallScopedIndex(shared, staying.signal).getFile(snapshot, 'src/a.ts');
    await waitFor(() => slow.calls.length > 1);
    leaving.abort(new Error('gave up (test)'));
    await expect(mine).rejects.toThrow('gave up (test)');
    slow.release();
    expect(await theirs).toMatchObject({ path: 'src/a.ts', content: 'a\n' });
    // One load for both, asked without either call's signal.
    expect(slow.calls.filter((c) => c.method === 'getFile')).toEqual([{ method: 'getFile', afterAnswer: false, signal: undefined }]);
  });

  it('passes the signal through every layer that does not share the load, down to the adapter', async () => {
    const { index } = await countedIndex();
    const slow = stallingIndex(index, 1_000);
    const composed = composeIndex(slow.index, { metadataTtlMs: 60_000 });
    const snapshot = await currentSnapshot(composed);
    const signal = new AbortController().signal;
    await new CallScopedIndex(composed, signal).visibleEntries(snapshot, null, 10);
    await new CallScopedIndex(composed, signal).findRetired(snapshot, 'gone.ts');
    expect(slow.calls.filter((c) => ['visibleEntries', 'findRetired'].includes(c.method)).map((c) => c.signal)).toEqual([signal, signal]);
  });
});
