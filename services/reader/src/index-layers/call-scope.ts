import type { IndexCallOptions } from '@gitdex/ports';
import { ForwardingIndex } from './forwarding-index';
import type { ReaderIndex } from './reader-index';

/**
 * The index as one tool call sees it: once `signal` is aborted (deadline passed, request
 * cancelled) no further index call starts, a call in flight is abandoned at once (rejects
 * with the signal's reason) and every layer below is given `{ signal }` as the call's
 * IndexCallOptions, down to the adapter, which stops its work. Any loop of index calls in a
 * tool therefore ends at its next call. It sits above the shared layers: an answer they
 * share with other calls is only left by this one, never cancelled for them (a sharing
 * layer does not pass the options on to the loads it shares).
 */
export class CallScopedIndex extends ForwardingIndex {
  private readonly options: IndexCallOptions;

  constructor(
    inner: ReaderIndex,
    private readonly signal: AbortSignal,
  ) {
    super(inner);
    this.options = { signal };
  }

  protected override pass<T>(_options: IndexCallOptions | undefined, call: (options: IndexCallOptions | undefined) => Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason as Error);
    return untilAborted(call(this.options), this.signal);
  }
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
