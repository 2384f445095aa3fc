import type { ReadAheadLoad } from '../../src/index-layers/read-ahead-load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, as long as a loaded machine may take, and no longer. */
export async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(2)) {
    if (Date.now() > deadline) throw new Error(`${what} never came`);
  }
}

/**
 * The read cache's loads ahead as they end, for tests to wait on them rather than on the
 * clock: `ended(kind)` resolves with the next load of that kind not yet waited for.
 */
export function loadsAhead() {
  const seen: ReadAheadLoad[] = [];
  const waitedFor: Record<ReadAheadLoad['kind'], number> = { files: 0, catalogue: 0, summaries: 0 };
  return {
    onReadAhead: (load: ReadAheadLoad) => void seen.push(load),
    async ended(kind: ReadAheadLoad['kind']): Promise<ReadAheadLoad> {
      const ofKind = () => seen.filter((load) => load.kind === kind);
      await until(() => ofKind().length > waitedFor[kind], `a load ahead of ${kind}`);
      return ofKind()[waitedFor[kind]++] as ReadAheadLoad;
    },
    /** Every load that ended so far. */
    seen,
  };
}
