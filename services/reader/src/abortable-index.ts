import type { IndexCallOptions, IndexStore } from '@gitdex/ports';

/**
 * Where each read takes its IndexCallOptions (see the port). Methods not listed (writes,
 * and the content-search methods whose scope or argument carries a signal already) still
 * refuse to start once the signal is aborted.
 */
const OPTIONS_AT: Partial<Record<keyof IndexStore, number>> = {
  getRepository: 1,
  findRepositoryByName: 1,
  listRepositories: 0,
  getRefState: 2,
  listRefStates: 1,
  lookupForRead: 1,
  visibleEntries: 3,
  lookupEntries: 2,
  getFile: 2,
  visibleFiles: 4,
  listFolders: 1,
  listFiles: 3,
  stats: 1,
  suggestCandidates: 2,
  findByBlobSha: 3,
  findRetired: 2,
  retiredPaths: 2,
  snapshotsWithPath: 2,
};

/**
 * The index as one tool call sees it: once `signal` is aborted (deadline passed, request
 * cancelled) no further index call starts, a call in flight is abandoned at once (rejects
 * with the signal's reason) and the adapter is told to stop it. Any loop of index calls in
 * a tool therefore ends at its next call. Wraps the shared read cache from the outside: an
 * answer shared with other calls is only left by this one, never cancelled for them (the
 * cache does not pass the options on to the loads it shares).
 */
export function abortableIndex(index: IndexStore, signal: AbortSignal): IndexStore {
  const options: IndexCallOptions = { signal };
  return new Proxy(index, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'close') return value;
      const at = OPTIONS_AT[property as keyof IndexStore];
      return (...args: unknown[]): Promise<unknown> => {
        signal.throwIfAborted();
        if (at !== undefined) {
          args = args.slice(0, at);
          args[at] = options;
        }
        return untilAborted((value as (...a: unknown[]) => Promise<unknown>).apply(target, args), signal);
      };
    },
  });
}

/** The work's outcome, or the signal's reason as soon as it is aborted, whichever comes first. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The work is left to settle on its own; its failure is nobody's to report.
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
