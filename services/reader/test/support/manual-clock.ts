import type { Repeat } from '../../src/index-layers/metadata/keep-fresh';

/**
 * A clock and a timer the test moves by hand (composeIndex's `now` and `repeat`): time passes
 * only in `advance`, which runs every check that falls due on the way at its own time, so a
 * reuse window or a keep-fresh check never depends on how late a loaded machine runs a timer.
 */
export function manualClock(start = 0) {
  let at = start;
  const checks = new Set<{ ms: number; due: number; check: () => void }>();
  const repeat: Repeat = (ms, check) => {
    const entry = { ms, due: at + ms, check };
    checks.add(entry);
    return () => checks.delete(entry);
  };
  return {
    now: () => at,
    repeat,
    /**
     * Moves the clock on by `ms`, running each check as it falls due, earliest first, and
     * letting the event loop turn after each (what it started answers before the next one).
     */
    async advance(ms: number): Promise<void> {
      const end = at + ms;
      for (;;) {
        const next = [...checks].filter((entry) => entry.due <= end).sort((a, b) => a.due - b.due)[0];
        if (!next) break;
        at = next.due;
        next.due += next.ms;
        next.check();
        await new Promise((resolve) => setImmediate(resolve));
      }
      at = end;
    },
    /** Whether some check is set to run (a timer the real clock would keep ticking). */
    running: () => checks.size > 0,
  };
}
