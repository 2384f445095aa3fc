import type { FileWrite, IndexStore } from '@gitdex/ports';
import { WriteBuffer } from '../src/write-buffer';

function put(path: string): FileWrite {
  return { type: 'put', document: { path, content: 'x' } } as unknown as FileWrite;
}

/** An index whose writes finish only when the test lets them. */
function heldIndex() {
  const pending: { paths: string[]; finish: (error?: Error) => void }[] = [];
  let underWay = 0;
  let mostUnderWay = 0;
  const index = {
    writeFiles: (writes: FileWrite[]) =>
      new Promise<void>((resolve, reject) => {
        underWay += 1;
        mostUnderWay = Math.max(mostUnderWay, underWay);
        pending.push({
          paths: writes.map((w) => (w.type === 'put' ? w.document.path : w.path)),
          finish: (error) => {
            underWay -= 1;
            if (error) reject(error);
            else resolve();
          },
        });
      }),
  } as unknown as IndexStore;
  return { index, pending, most: () => mostUnderWay };
}
const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('WriteBuffer', () => {
  it('keeps reading while up to three bulks are written, and waits at the fourth until the oldest is done', async () => {
    const { index, pending, most } = heldIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 1, maxBytes: 1 << 30 });
    for (const path of ['a', 'b', 'c']) await buffer.add(put(path));
    let fourthAdded = false;
    const fourth = buffer.add(put('d')).then(() => (fourthAdded = true));
    await turns();
    expect(pending.map((p) => p.paths)).toEqual([['a'], ['b'], ['c'], ['d']]);
    expect(fourthAdded).toBe(false);
    pending[1]!.finish();
    await turns();
    expect(fourthAdded).toBe(false); // the oldest, not any, must finish
    pending[0]!.finish();
    await fourth;
    await buffer.add(put('e'));
    expect(most()).toBe(4);
    for (const p of pending.slice(2)) p.finish();
    await buffer.flush();
    expect(buffer.written).toBe(5);
  });

  it('honours a smaller bound', async () => {
    const { index, pending, most } = heldIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 1, maxBytes: 1 << 30, maxInFlight: 2 });
    await buffer.add(put('a'));
    const second = buffer.add(put('b'));
    await turns();
    expect(pending).toHaveLength(2);
    pending[0]!.finish();
    await second;
    pending[1]!.finish();
    await buffer.flush();
    expect(most()).toBe(2);
  });

  it('rejects flush when a bulk under way failed, after waiting for the others', async () => {
    const { index, pending } = heldIndex();
    const buffer = new WriteBuffer(index, { maxWrites: 1, maxBytes: 1 << 30 });
    await buffer.add(put('a'));
    await buffer.add(put('b'));
    pending[0]!.finish(new Error('refused'));
    pending[1]!.finish();
    await expect(buffer.flush()).rejects.toThrow('refused');
    expect(buffer.written).toBe(1);
  });
});
