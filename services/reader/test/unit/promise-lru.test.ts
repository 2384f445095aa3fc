import { PromiseLru, roughSize } from '../../src/promise-lru';

/** A cache of answers weighing 20 bytes each, whose loads are counted by key. */
function cache(maxBytes: number, maxEntries = 100) {
  const lru = new PromiseLru<string>({ maxEntries, maxBytes }, () => 20);
  const loads: string[] = [];
  const get = (key: string, pass?: object) =>
    lru.get(
      key,
      () => {
        loads.push(key);
        return Promise.resolve(key.repeat(10));
      },
      pass,
    );
  /** Gets every key in turn, letting each answer be weighed before the next. */
  const run = async (keys: string[], pass?: object) => {
    for (const key of keys) {
      await get(key, pass);
      await Promise.resolve();
    }
  };
  const taken = () => loads.splice(0);
  return { lru, get, run, taken };
}

const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `k${from + i}`);

describe('PromiseLru', () => {
  test('without a pass, drops the least recently used first', async () => {
    const { lru, run, taken } = cache(60);
    await run(['k1', 'k2', 'k3']);
    await run(['k1']);
    await run(['k4']);
    expect(taken()).toEqual(['k1', 'k2', 'k3', 'k4']);
    await run(['k1', 'k3', 'k4']);
    expect(taken()).toEqual([]);
    expect(lru.size).toBe(3);
  });

  test('a pass over more than the budget keeps its first answers, and the same keys again find them', async () => {
    const { run, taken } = cache(60);
    await run(keys(0, 10), {});
    expect(taken()).toEqual(keys(0, 10));
    // A new pass over the same keys: the three kept are found, the rest loaded and not kept.
    await run(keys(0, 10), {});
    expect(taken()).toEqual(keys(3, 10));
    await run(keys(0, 10), {});
    expect(taken()).toEqual(keys(3, 10));
  });

  test("another pass, or a use without one, pushes out an earlier pass's answers as least-recently-used does", async () => {
    const { run, taken } = cache(60);
    await run(keys(0, 3), {});
    await run(keys(10, 12), {});
    await run(['k20']);
    taken();
    await run(['k10', 'k11', 'k20']);
    expect(taken()).toEqual([]);
    await run(['k0']);
    expect(taken()).toEqual(['k0']);
  });

  test('the count bound holds a pass to its first entries too', async () => {
    const { lru, run, taken } = cache(10_000, 4);
    await run(keys(0, 8), {});
    expect(lru.size).toBe(4);
    taken();
    await run(keys(0, 8), {});
    expect(taken()).toEqual(keys(4, 8));
  });

  test('a failed load is not kept', async () => {
    const lru = new PromiseLru<string>({ maxEntries: 10, maxBytes: 100 });
    await expect(lru.get('k', () => Promise.reject(new Error('index down')), {})).rejects.toThrow('index down');
    expect(lru.size).toBe(0);
    expect(await lru.get('k', () => Promise.resolve('v'), {})).toBe('v');
  });
});

describe('roughSize', () => {
  test('an ASCII string weighs a byte a character, any other two, as V8 holds them', () => {
    expect(roughSize('a'.repeat(1000))).toBe(16 + 1000);
    expect(roughSize(`${'a'.repeat(999)}é`)).toBe(16 + 2 * 1000);
    expect(roughSize(`${'a'.repeat(998)}😀`)).toBe(16 + 2 * 1000);
  });
});
