// How the GitHub stand-in keeps repository sizes: counted once, then recounted behind answers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit } from '../github-standin/git';
import { repoSizeKb } from '../github-standin/git-refs';
import { SizeCache } from '../github-standin/repo-size';

/** A counter that answers sizes (or fails) in the order the test gives, each once the test settles it. */
function counter(answers: (number | 'fail')[]) {
  const calls: string[] = [];
  let release: (() => void) | null = null;
  const count = async (dir: string) => {
    calls.push(dir);
    const answer = answers.shift() ?? 'fail';
    await new Promise<void>((resolve) => (release = resolve));
    if (answer === 'fail') throw new Error('cannot count (test)');
    return answer;
  };
  /** Lets the count in flight answer, and what waits on it run. */
  const settle = async () => {
    release?.();
    release = null;
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { count, calls, settle };
}

describe('SizeCache', () => {
  it('answers the first count to every caller, then the kept size without counting again', async () => {
    const { count, calls, settle } = counter([100]);
    const cache = new SizeCache({ count, now: () => 0 });
    const first = [cache.sizeKb('a', '/repos/a'), cache.sizeKb('a', '/repos/a')];
    await settle();
    expect(await Promise.all(first)).toEqual([100, 100]);
    expect(await cache.sizeKb('a', '/repos/a')).toBe(100);
    expect(calls).toEqual(['/repos/a']);
  });

  it('past the refresh time answers the old size at once and counts again behind it', async () => {
    let now = 0;
    const { count, calls, settle } = counter([100, 250]);
    const cache = new SizeCache({ count, now: () => now, refreshMs: 1000 });
    const first = cache.sizeKb('a', '/repos/a');
    await settle();
    expect(await first).toBe(100);
    now = 999;
    expect(await cache.sizeKb('a', '/repos/a')).toBe(100);
    expect(calls).toHaveLength(1);
    now = 1000;
    expect(await cache.sizeKb('a', '/repos/a')).toBe(100);
    expect(await cache.sizeKb('a', '/repos/a')).toBe(100);
    expect(calls).toHaveLength(2);
    await settle();
    expect(await cache.sizeKb('a', '/repos/a')).toBe(250);
    expect(calls).toHaveLength(2);
  });

  it('does not keep a failed count: the first fails its caller, a later one keeps the old size until the next refresh', async () => {
    let now = 0;
    const { count, calls, settle } = counter(['fail', 40, 'fail']);
    const cache = new SizeCache({ count, now: () => now, refreshMs: 1000 });
    const first = cache.sizeKb('a', '/repos/a');
    await settle();
    await expect(first).rejects.toThrow('cannot count');
    const second = cache.sizeKb('a', '/repos/a');
    await settle();
    expect(await second).toBe(40);
    now = 1500;
    expect(await cache.sizeKb('a', '/repos/a')).toBe(40);
    await settle();
    expect(await cache.sizeKb('a', '/repos/a')).toBe(40);
    now = 2499;
    expect(await cache.sizeKb('a', '/repos/a')).toBe(40);
    expect(calls).toHaveLength(3);
    now = 2500;
    expect(await cache.sizeKb('a', '/repos/a')).toBe(40);
    expect(calls).toHaveLength(4);
  });

  it('keeps repositories apart by key', async () => {
    const { count, settle } = counter([1, 2]);
    const cache = new SizeCache({ count, now: () => 0 });
    const a = cache.sizeKb('a', '/repos/a');
    await settle();
    const b = cache.sizeKb('b', '/repos/b');
    await settle();
    expect([await a, await b, await cache.sizeKb('a', '/repos/a')]).toEqual([1, 2, 1]);
  });

  it('counts with git by default: the size git count-objects reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standin-size-'));
    try {
      await runGit(dir, ['init', '-q', '-b', 'main']);
      writeFileSync(join(dir, 'a.txt'), 'x'.repeat(100_000));
      await runGit(dir, ['add', 'a.txt']);
      expect(await new SizeCache().sizeKb(dir, dir)).toBe(await repoSizeKb(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
