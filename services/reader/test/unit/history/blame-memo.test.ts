/**
 * The reader's memo of version blames: bounded by the lines it holds, least recently used out
 * first; a blame whose read failed is not kept, so the next call reads again.
 */
import { blame, memoKey, type BlameHistory, type VersionBlame } from '@gitdex/diff';
import { LineBoundMemo } from '../../../src/tools/blame-memo';

const version = (lines: number): Promise<VersionBlame> => Promise.resolve({ owners: [{ commit: 'c', path: 'p', boundary: false }], owner: new Int32Array(lines), at: new Int32Array(lines) });

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the blame memo', () => {
  it('holds at most its bound of lines, dropping the least recently used first', async () => {
    const memo = new LineBoundMemo(10);
    memo.set('a', version(4));
    memo.set('b', version(4));
    await settled();
    expect(memo.get('a')).toBeDefined(); // a is now the most recently used
    memo.set('c', version(4));
    await settled();
    expect([memo.has('a'), memo.has('b'), memo.has('c')]).toEqual([true, false, true]);
  });

  it('keeps no blame whose read failed, so a later call computes it again', async () => {
    const memo = new LineBoundMemo(1000);
    let fail = true;
    const history: BlameHistory = {
      commit: async (sha) => (sha === 'c1' || sha === 'c2' ? { parents: sha === 'c2' ? ['c1'] : [] } : undefined),
      blobAt: async (sha) => `blob-${sha}`,
      renamedFrom: async () => undefined,
      read: async (blob) => {
        if (blob === 'blob-c1' && fail) throw new Error('store unavailable');
        return Buffer.from(blob === 'blob-c1' ? 'one\ntwo\n' : 'one\ntwo\nthree\n');
      },
    };
    await expect(blame(history, 'c2', 'f', memo)).rejects.toThrow('store unavailable');
    await settled();
    expect(memo.has(memoKey('c2', 'f'))).toBe(false);
    fail = false;
    const lines = await blame(history, 'c2', 'f', memo);
    expect(lines.map((l) => [l.commit, l.boundary])).toEqual([
      ['c1', true],
      ['c1', true],
      ['c2', false],
    ]);
    expect(memo.has(memoKey('c2', 'f'))).toBe(true);
  });
});
