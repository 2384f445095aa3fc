import { readAhead } from '../../src/search/read-ahead';

const contentsOf = (batch: string[]) => batch.map((path) => ({ path, content: path.toUpperCase() }));

describe('readAhead: contents of the next batch are read while this one is verified', () => {
  test('yields every batch in order, with the following read already started', async () => {
    const started: string[] = [];
    const seen: string[] = [];
    for await (const [batch, contents] of readAhead([['a'], ['b'], ['c']], async (b) => (started.push(b[0] as string), contentsOf(b)))) {
      seen.push(`${batch[0]}:${contents[0]?.content}:${started.length}`);
    }
    // While batch a is verified, b has been asked for; while c is verified, nothing more.
    expect(seen).toEqual(['a:A:2', 'b:B:3', 'c:C:3']);
  });

  test('a failed read is thrown at its own batch, after the ones before it', async () => {
    const seen: string[] = [];
    const read = async (b: string[]) => {
      if (b[0] === 'b') throw new Error('index down');
      return contentsOf(b);
    };
    await expect(
      (async () => {
        for await (const [batch] of readAhead([['a'], ['b'], ['c']], read)) seen.push(batch[0] as string);
      })(),
    ).rejects.toThrow('index down');
    expect(seen).toEqual(['a']);
  });

  test('stopping early leaves no unhandled rejection from the read in flight', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const read = async (b: string[]) => {
        if (b[0] === 'b') throw new Error('aborted by the deadline');
        return contentsOf(b);
      };
      for await (const [batch] of readAhead([['a'], ['b']], read)) if (batch[0] === 'a') break;
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('no batches, no reads', async () => {
    const read = jest.fn(async (b: string[]) => contentsOf(b));
    for await (const _ of readAhead([], read)) throw new Error('nothing to yield');
    expect(read).not.toHaveBeenCalled();
  });
});
