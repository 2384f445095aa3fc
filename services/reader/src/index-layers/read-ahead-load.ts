import type { Snapshot } from '@gitdex/ports';

/** A load ahead that ended: a ref's small files, its catalogue, or the file summaries of its catalogue (for listings). */
export interface ReadAheadLoad {
  kind: 'files' | 'catalogue' | 'summaries';
  /** loaded; stopped (its snapshot stopped being current, or the budget was reached); failed (reads fall back to the index). */
  outcome: 'loaded' | 'stopped' | 'failed';
  repositoryId: number;
  ref: string;
  seconds: number;
}

/** Told of every load ahead when it ends (metrics; tests wait on it instead of on the clock). */
export type OnReadAhead = (load: ReadAheadLoad) => void;

/** A load ahead starting now: call what it returns with its outcome when it ends. */
export function loadStarted(onReadAhead: OnReadAhead | undefined, kind: ReadAheadLoad['kind'], snapshot: Snapshot): (outcome: ReadAheadLoad['outcome']) => void {
  const started = performance.now();
  return (outcome) => onReadAhead?.({ kind, outcome, repositoryId: snapshot.repositoryId, ref: snapshot.ref, seconds: (performance.now() - started) / 1000 });
}

/**
 * Before each page of a load ahead, the calls queued behind it run first: an in-process index
 * answers synchronously, and a load would otherwise hold the event loop from the reads (and
 * from the call that started it).
 */
export const queuedCallsFirst = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
