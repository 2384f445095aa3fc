import fc from 'fast-check';
import { compileQuery } from '../../src/search/query';
import { findHits } from '../../src/search/verify';

const never = () => false;

/** What RE2 alone finds: the same query with every indexOf fast path turned off. */
function byRegexEngine(content: string, query: string, caseSensitive: boolean) {
  const compiled = compileQuery(query, false, caseSensitive);
  return findHits(content, { ...compiled, literal: null, asciiFoldedLiteral: null }, 1_000, never);
}

// Letters RE2 folds across the ASCII boundary (Kelvin sign, long s), one that lower-cases to
// two units (U+0130), a final sigma, line ends and plain ASCII around them.
const ALPHABET = ['a', 'k', 'K', 's', 'S', 'i', 'I', '\u212a', '\u017f', '\u0130', 'Σ', 'é', '\n', '\r', ' ', '(', '😀'];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 60 }).map((chars) => chars.join(''));
const asciiLiteral = fc.array(fc.constantFrom('a', 'k', 'K', 's', 'S', 'i', 'I', ' ', '('), { minLength: 1, maxLength: 4 }).map((chars) => chars.join(''));

describe('search verification fast paths find exactly what RE2 finds', () => {
  test('a case-insensitive ASCII literal: lines, counts and ranges equal the regex engine', () => {
    fc.assert(
      fc.property(text, asciiLiteral, (content, literal) => {
        const compiled = compileQuery(literal, false, false);
        expect(compiled.asciiFoldedLiteral).toBe(literal.toLowerCase());
        expect(findHits(content, compiled, 1_000, never)).toEqual(byRegexEngine(content, literal, false));
      }),
      { numRuns: 2_000 },
    );
  });

  test('a case-sensitive literal: the same', () => {
    fc.assert(
      fc.property(text, asciiLiteral, (content, literal) => {
        expect(findHits(content, compileQuery(literal, false, true), 1_000, never)).toEqual(byRegexEngine(content, literal, true));
      }),
      { numRuns: 1_000 },
    );
  });

  test('the Kelvin sign and the long s match k and s case-insensitively, as in RE2', () => {
    const hits = findHits('x\u212ay\nno\nu\u017fe\n', compileQuery('Ky', false, false), 10, never);
    expect(hits.lines).toEqual([{ line: 1, ranges: [[1, 3]] }]);
    expect(findHits('u\u017fe', compileQuery('use', false, false), 10, never).count).toBe(1);
  });

  test('non-ASCII literals and contents that change length when lower-cased still go through RE2', () => {
    expect(compileQuery('é', false, false).asciiFoldedLiteral).toBeNull();
    // U+0130 lower-cases to two units: positions would shift, so the regex engine answers.
    const hits = findHits('\u0130 kid\n', compileQuery('kid', false, false), 10, never);
    expect(hits.lines).toEqual([{ line: 1, ranges: [[2, 5]] }]);
  });
});
