import { pagesAhead, readAhead } from '../../src/search/read-ahead';

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

describe('pagesAhead: the next page is asked for while this one is worked on', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];
  const pageOf = (asked: (string | null)[]) => async (after: string | null, size: number) => {
    asked.push(after);
    const from = after === null ? 0 : items.indexOf(after) + 1;
    return items.slice(from, from + size);
  };

  test('reads every page after the last item of the one before, one read ahead, and stops at a short page', async () => {
    const asked: (string | null)[] = [];
    const seen: string[] = [];
    for await (const page of pagesAhead(pageOf(asked), () => 2)) seen.push(`${page.join('')}:${asked.length}`);
    expect(seen).toEqual(['ab:2', 'cd:3', 'e:3']);
    expect(asked).toEqual([null, 'b', 'd']);
  });

  test('each page of the size given for its index, and a page short of its own size is the last', async () => {
    const asked: (string | null)[] = [];
    const seen: string[] = [];
    for await (const page of pagesAhead(pageOf(asked), (index) => 2 ** index)) seen.push(page.join(''));
    expect(seen).toEqual(['a', 'bc', 'de']);
    expect(asked).toEqual([null, 'a', 'c']);
  });

  test('a full last page costs one more, empty, read', async () => {
    const asked: (string | null)[] = [];
    const pages: string[][] = [];
    for await (const page of pagesAhead(pageOf(asked), () => 5)) pages.push(page);
    expect(pages).toEqual([items, []]);
    expect(asked).toEqual([null, 'e']);
  });

  test('a failed read is thrown at its own page, and stopping early leaves no unhandled rejection', async () => {
    const failing = async (after: string | null) => {
      if (after !== null) throw new Error('index down');
      return ['a', 'b'];
    };
    const seen: string[][] = [];
    await expect(
      (async () => {
        for await (const page of pagesAhead(failing, () => 2)) seen.push(page);
      })(),
    ).rejects.toThrow('index down');
    expect(seen).toEqual([['a', 'b']]);

    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      for await (const _ of pagesAhead(failing, () => 2)) break;
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
