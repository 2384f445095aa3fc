import type { Timers } from '../../src';

/** Lets promise chains started by a timer finish (a lease store answers through a few of them). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock and timers the test moves by hand: nothing waits on the wall clock. */
export function manualTime(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  const pending: { at: number; callback: () => void }[] = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const entry = { at: now + ms, callback };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const i = pending.indexOf(handle as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  return {
    timers,
    now: () => new Date(now),
    pending: () => pending.map((p) => p.at - now),
    /** Moves the clock by `seconds` and fires the timers that came due. */
    advance(seconds: number): void {
      now += seconds * 1000;
      for (const due of pending.filter((p) => p.at <= now)) {
        pending.splice(pending.indexOf(due), 1);
        due.callback();
      }
    },
    /** Moves the clock by `seconds`, firing the timers that come due in order, and lets their promises settle. */
    async advanceSettled(seconds: number): Promise<void> {
      const end = now + seconds * 1000;
      for (;;) {
        const due = pending.filter((p) => p.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = Math.max(now, due.at);
        pending.splice(pending.indexOf(due), 1);
        due.callback();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}
