import type { ReadAheadLoad } from '../../src/index-layers/read-ahead-load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, as long as a loaded machine may take, and no longer. */
export async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(2)) {
    if (Date.now() > deadline) throw new Error(`${what} never came`);
  }
}

/**
 * The index layers' loads ahead as they end, for tests to wait on them rather than on the
 * clock: `ended(kind)` resolves with the next load of that kind not yet waited for, as soon as
 * the layer reports it (onReadAhead), with no polling.
 */
export function loadsAhead() {
  const seen: ReadAheadLoad[] = [];
  const waitedFor: Record<ReadAheadLoad['kind'], number> = { files: 0, catalogue: 0, summaries: 0 };
  const waiting: { kind: ReadAheadLoad['kind']; at: number; resolve: (load: ReadAheadLoad) => void }[] = [];
  const ofKind = (kind: ReadAheadLoad['kind']) => seen.filter((load) => load.kind === kind);
  return {
    onReadAhead: (load: ReadAheadLoad) => {
      seen.push(load);
      for (const waiter of waiting.splice(0)) {
        const ready = ofKind(waiter.kind)[waiter.at];
        if (ready) waiter.resolve(ready);
        else waiting.push(waiter);
      }
    },
    ended(kind: ReadAheadLoad['kind']): Promise<ReadAheadLoad> {
      const at = waitedFor[kind]++;
      const ready = ofKind(kind)[at];
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push({ kind, at, resolve }));
    },
    /** Every load that ended so far. */
    seen,
  };
}
