import type { IndexStore } from '@gitdex/ports';

export interface IndexCall {
  method: string;
  /** The tool's answer (or the cancellation) had already happened when this call was made. */
  afterAnswer: boolean;
  /** The signal the adapter was given, if any. */
  signal: AbortSignal | undefined;
}

/**
 * A real SQLite index whose reads stall from the `stallFrom`-th call on until released,
 * recording every call: whether it came after the test saw the call end, and its signal.
 */
export function stallingIndex(index: IndexStore, stallFrom: number) {
  const calls: IndexCall[] = [];
  const stalled: (() => void)[] = [];
  let released = false;
  let unanswered = 0;
  const state = { answered: false };
  const slow = new Proxy(index, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'close') return value;
      return async (...args: unknown[]) => {
        const last = args[args.length - 1] as { signal?: unknown } | undefined;
        const signal = last !== null && typeof last === 'object' && last.signal instanceof AbortSignal ? last.signal : undefined;
        calls.push({ method: String(property), afterAnswer: state.answered, signal });
        unanswered += 1;
        try {
          if (!released && calls.length > stallFrom) await new Promise<void>((resolve) => stalled.push(resolve));
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          unanswered -= 1;
        }
      };
    },
  });
  return {
    index: slow,
    calls,
    state,
    /** Lets every stalled call and every later one answer at once. */
    release() {
      released = true;
      for (const resolve of stalled.splice(0)) resolve();
    },
    /**
     * Resolves once every call made so far has answered and the event loop then went round
     * `quietTurns` times with no new call: work that was not stopped has had every chance to call
     * again (the index answers at once, so its next call is turns away, not milliseconds).
     */
    async settled(quietTurns = 50): Promise<void> {
      for (let quiet = 0; quiet < quietTurns;) {
        const before = calls.length;
        await new Promise<void>((resolve) => setImmediate(resolve));
        quiet = calls.length === before && unanswered === 0 ? quiet + 1 : 0;
      }
    },
  };
}

/** Polls until `condition` holds; gives up (failing the test) after 10 s so a broken feature never hangs jest. */
export async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; !condition(); i += 1) {
    if (i > 1000) throw new Error('waited 10 s for a condition that never held');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
