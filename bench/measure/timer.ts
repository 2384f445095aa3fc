/** Wall-clock timing of async calls, in milliseconds (monotonic clock). */

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `fn(i)` `warmup` times unmeasured, then `samples` times measured, one after the other.
 */
export async function repeat(samples: number, warmup: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * Measures several contenders in the same loop, alternating which goes first, so that
 * noise from other processes lands on all of them alike. Answers the samples per name.
 * pauseMs: a wait before each call, not measured (reads spaced as a caller's are).
 */
export async function interleave(samples: number, warmup: number, contenders: Record<string, (i: number) => Promise<unknown>>, pauseMs = 0): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + samples; i += 1) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      if (pauseMs > 0) await sleep(pauseMs);
      const started = performance.now();
      await contenders[name]!(i);
      const ms = performance.now() - started;
      if (i >= warmup) out[name]!.push(ms);
    }
  }
  return out;
}

/** Polls `check` every `intervalMs` until it answers true; the time it did, or null after `timeoutMs`. */
export async function pollUntil(check: () => Promise<boolean>, options: { intervalMs: number; timeoutMs: number }): Promise<number | null> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const ok = await check().catch(() => false);
    if (ok) return Date.now();
    if (Date.now() >= deadline) return null;
    await sleep(options.intervalMs);
  }
}
