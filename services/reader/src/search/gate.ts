import type { Principal } from '../principal';
import { ToolError } from '../tool-error';

/**
 * Searches in flight, per process and per caller: a search holds CPU (verification) and memory
 * (contents) until its deadline, so a caller who starts many at once would take the process's
 * share from everyone else. Past a cap the call is refused at once with a caller error saying
 * when to retry, and nothing else is done for it.
 */
export const SEARCHES_PER_PROCESS = 16;
export const SEARCHES_PER_CALLER = 4;

export interface SearchGate {
  /** Takes a place or throws UNAVAILABLE; the returned function gives it back (once). */
  enter(principal: Principal | null, retryAfterSeconds: number): () => void;
}

/** Anonymous callers share one key: they cannot be told apart. */
const callerKey = (principal: Principal | null): string => (principal === null ? '' : `p:${principal.id}`);

export function createSearchGate(perProcess = SEARCHES_PER_PROCESS, perCaller = SEARCHES_PER_CALLER): SearchGate {
  let total = 0;
  const byCaller = new Map<string, number>();
  return {
    enter(principal, retryAfterSeconds) {
      const key = callerKey(principal);
      const mine = byCaller.get(key) ?? 0;
      const busy = (what: string) =>
        new ToolError('UNAVAILABLE', `search_code is busy: ${what}. Retry in ${retryAfterSeconds} s, when one of them has answered (a search stops at its deadline at the latest).`);
      if (mine >= perCaller) throw busy(`you already have ${mine} searches running, at most ${perCaller} at once`);
      if (total >= perProcess) throw busy(`${total} searches are running on this server, at most ${perProcess} at once`);
      total += 1;
      byCaller.set(key, mine + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        total -= 1;
        const now = (byCaller.get(key) ?? 1) - 1;
        if (now === 0) byCaller.delete(key);
        else byCaller.set(key, now);
      };
    },
  };
}

/** One gate per reader (an object it holds for its lifetime): tests and embedders running several readers keep them apart. */
const gates = new WeakMap<object, SearchGate>();
export function searchGateOf(owner: object): SearchGate {
  let gate = gates.get(owner);
  if (!gate) {
    gate = createSearchGate();
    gates.set(owner, gate);
  }
  return gate;
}
