import fc from 'fast-check';
import { depthOf, squashed, trigramsOf } from '@gitdex/terms';

/** The definitions the fast forms must agree with: trigrams of code points, depth as the number of path segments. */
const reference = {
  trigramsOf(text: string): string[] {
    const padded = `^${squashed(text)}$`;
    const chars = [...padded];
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i += 1) grams.add(chars.slice(i, i + 3).join(''));
    if (chars.length < 3) grams.add(padded);
    return [...grams];
  },
  depthOf: (path: string) => (path === '' ? 0 : path.split('/').length),
};

/** Names and paths of every kind of unit: ASCII, accents, astral characters, lone surrogates, slashes. */
const texts = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', 'B', '/', '_', '.', 'é', '\u{1F600}', '\u{1D49C}', '\uD800', '\uDC00', '日'), maxLength: 30 }),
);

describe('path terms', () => {
  test('trigramsOf gives the trigrams of code points, as the array of characters does', () => {
    fc.assert(
      fc.property(texts, (text) => expect(trigramsOf(text)).toEqual(reference.trigramsOf(text))),
      { numRuns: 3000 },
    );
    // An astral letter (U+1D49C) is one character of a trigram, not two halves.
    expect(trigramsOf('Ab\u{1D49C}c')).toEqual(['^ab', 'ab\u{1D49C}', 'b\u{1D49C}c', '\u{1D49C}c$']);
  });

  test('depthOf counts the segments of a path', () => {
    fc.assert(
      fc.property(texts, (path) => expect(depthOf(path)).toBe(reference.depthOf(path))),
      { numRuns: 3000 },
    );
    expect([depthOf(''), depthOf('a'), depthOf('a/b/c.ts')]).toEqual([0, 1, 3]);
  });
});
