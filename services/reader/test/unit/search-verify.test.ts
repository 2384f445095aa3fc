import fc from 'fast-check';
import { planQuery } from '../../src/search/plan';
import { compileQuery } from '../../src/search/query';
import { requirementOf } from '../../src/search/requirement';
import { findHits } from '../../src/search/verify';

const never = () => false;

/** What RE2 alone finds: the same query with every indexOf fast path turned off. */
function byRegexEngine(content: string, query: string, caseSensitive: boolean, keep = 1_000) {
  const compiled = compileQuery(query, false, caseSensitive);
  return findHits(content, { ...compiled, literal: null, asciiFoldedLiteral: null }, keep, never);
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
        expect(compiled.asciiFoldedLiteral).not.toBeNull();
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

  test('a literal on more lines than are kept: the kept ones numbered and placed, every line counted, as the regex engine does', () => {
    const content = ['return a;', 'x', 'return b; return c;', '', 'y return', 'returned', 'z'].join('\n');
    const hits = findHits(content, compileQuery('return', false, true), 2, never);
    expect(hits).toEqual({
      lines: [
        { line: 1, start: 0, end: 9, ranges: [[0, 6]] },
        {
          line: 3,
          start: 12,
          end: 31,
          ranges: [
            [0, 6],
            [10, 16],
          ],
        },
      ],
      count: 4,
      complete: true,
    });
    expect(hits).toEqual(byRegexEngine(content, 'return', true, 2));
  });

  test('a regex without a requirement numbers and places an empty first line as line 1', () => {
    const hits = findHits('\nx\n\n', compileQuery('^$', true, true), 10, never);
    expect(hits).toEqual({
      lines: [
        { line: 1, start: 0, end: 0, ranges: [[0, 0]] },
        { line: 3, start: 3, end: 3, ranges: [[0, 0]] },
      ],
      count: 2,
      complete: true,
    });
  });

  test('the Kelvin sign and the long s match k and s case-insensitively, as in RE2', () => {
    const hits = findHits('x\u212ay\nno\nu\u017fe\n', compileQuery('Ky', false, false), 10, never);
    expect(hits.lines).toEqual([{ line: 1, start: 0, end: 3, ranges: [[1, 3]] }]);
    expect(findHits('u\u017fe', compileQuery('use', false, false), 10, never).count).toBe(1);
  });

  test('non-ASCII literals go through RE2; a content with letters that change length when lower-cased keeps its positions', () => {
    expect(compileQuery('é', false, false).asciiFoldedLiteral).toBeNull();
    // U+0130 lower-cases to two units, and is no i to RE2.
    const hits = findHits('\u0130 kid \u0130d\n', compileQuery('kid', false, false), 10, never);
    expect(hits.lines).toEqual([{ line: 1, start: 0, end: 8, ranges: [[2, 5]] }]);
    expect(findHits('\u0130d\n', compileQuery('id', false, false), 10, never).count).toBe(0);
  });

  test('a case-insensitive literal with the characters a regex gives a meaning to is found as it is written', () => {
    const query = 'a.b*(c)[d]{2}|e^$\\/+?';
    const content = `x A.B*(C)[D]{2}|E^$\\/+? y\naxbbcd\n`;
    expect(findHits(content, compileQuery(query, false, false), 10, never)).toEqual(byRegexEngine(content, query, false));
    expect(findHits(content, compileQuery(query, false, false), 10, never).lines).toEqual([{ line: 1, start: 0, end: content.indexOf('\n'), ranges: [[2, 2 + query.length]] }]);
  });

  test("what the query's plan requires, tested before the regex engine, never drops a match: lines, counts and ranges as without it", () => {
    // Words of the tricky alphabet, a query made of them (as a literal, or a regex with
    // alternations, classes, repetition and anchors), and a content that holds them in other
    // spellings (case changed, s as the long s, k as the Kelvin sign) between random units.
    const unit = fc.constantFrom('a', 'k', 'K', 's', 'S', 'i', 'I', '\u212a', '\u017f', '\u0130', 'Σ', 'é', ' ');
    const word = fc.array(unit, { minLength: 3, maxLength: 5 }).map((units) => units.join(''));
    const spelling = (w: string) => fc.constantFrom(w, w.toUpperCase(), w.toLowerCase(), w.replace(/s/g, '\u017f'), w.replace(/k/gi, '\u212a'), w.replace(/i/g, '\u0130'));
    const piece = (words: string[]) => fc.oneof(fc.constantFrom(...words), fc.constant(`(?:${words.join('|')})`), fc.constantFrom('\\s+', '\\w*', '[ks]', '.', '^', '$', 'i?'));
    const scenario = fc.array(word, { minLength: 1, maxLength: 3 }).chain((words) =>
      fc.record({
        query: fc.array(piece(words), { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join('')),
        literal: fc.constantFrom(...words),
        parts: fc.array(fc.oneof(fc.constantFrom(...words).chain(spelling), text), { maxLength: 12 }),
        separator: fc.constantFrom(' ', '\n', ''),
        caseSensitive: fc.boolean(),
        isRegex: fc.boolean(),
      }),
    );
    let filtered = 0;
    fc.assert(
      fc.property(scenario, ({ query, literal, parts, separator, caseSensitive, isRegex }) => {
        const content = parts.join(separator);
        const pattern = isRegex ? query : literal;
        const compiled = compileQuery(pattern, isRegex, caseSensitive);
        // The regex engine's path: the literal fast paths off, as for a regex.
        const viaRegex = { ...compiled, literal: null, asciiFoldedLiteral: null };
        const requires = requirementOf(planQuery(pattern, isRegex, compiled.caseSensitive));
        const expected = findHits(content, viaRegex, 1_000, never);
        if (requires !== null && expected.count > 0) filtered += 1;
        expect(findHits(content, viaRegex, 1_000, never, requires)).toEqual(expected);
      }),
      { numRuns: 3_000 },
    );
    // The property was tried where it matters: matches in contents the requirement looked at.
    expect(filtered).toBeGreaterThan(300);
  });

  test('a line without what the plan requires never reaches the regex engine', () => {
    const compiled = compileQuery('function\\s+\\w+Error\\(', true, true);
    const requires = requirementOf(planQuery(compiled.text, true, true));
    expect(requires).not.toBeNull();
    const test = jest.spyOn(compiled.re, 'test');
    // A case-sensitive query's requirement is of its strings in their case, on the text as it is.
    expect(requires?.cased).toBe(true);
    const content = ['const a = 1;', 'function make(x) { throw Error; }', 'return x;', 'function fooError(', 'throw new Error(e);', 'function fooerror('].join('\n');
    expect(findHits(content, compiled, 10, never, requires).lines.map((l) => l.line)).toEqual([4]);
    // Only line 4, the one line holding both "function" and "Error(" (line 6 has "error(", not "Error(").
    expect(test).toHaveBeenCalledTimes(1);
    expect(requirementOf(planQuery(compiled.text, true, false))?.cased).toBe(false);
  });

  test('a scan looks only at the lines that hold the longest string the plan requires, found as the requirement finds it, and numbers them right', () => {
    const content = ['const a = 1;', 'function make(x) { throw Error; }', 'return x;', 'function fooError(', 'throw new Error(e);', 'FUNCTION barError(', 'function bazerror('].join('\n');
    for (const [caseSensitive, lines, looked] of [
      [true, [4], ['function make(x) { throw Error; }', 'function fooError(', 'function bazerror(']],
      [false, [4, 6, 7], ['function make(x) { throw Error; }', 'function fooError(', 'FUNCTION barError(', 'function bazerror(']],
    ] as const) {
      const compiled = compileQuery('function\\s+\\w+Error\\(', true, caseSensitive);
      const requires = requirementOf(planQuery(compiled.text, true, caseSensitive));
      expect(requires?.anchor).toBeDefined();
      const test = jest.spyOn(requires!, 'test');
      expect(findHits(content, compiled, 10, never, requires).lines.map((l) => l.line)).toEqual(lines);
      // The whole content once, then each line holding "function" (longer than "Error("), and no other.
      expect(test.mock.calls.map(([text]) => text)).toEqual([content, ...looked]);
    }
  });

  test('an anchored scan numbers a hit after thousands of lines without the string, keeps counting past `keep`, and stops at the deadline', () => {
    // 100 units a line: the clock is looked at every 256 K units between two hits.
    const lines = Array.from({ length: 5_000 }, (_, i) => (i % 1_000 === 999 ? `function x${i}Error(` : `line ${String(i).padStart(4, '0')} ${'x'.repeat(89)}`));
    const content = `${lines.join('\r\n')}\n`;
    const lineAt = (n: number) => ({ start: content.indexOf(lines[n - 1] as string), end: content.indexOf(lines[n - 1] as string) + (lines[n - 1] as string).length + 1 });
    const compiled = compileQuery('function\\s+\\w+Error\\(', true, true);
    const requires = requirementOf(planQuery(compiled.text, true, true));
    const hits = findHits(content, compiled, 2, never, requires);
    expect(hits).toEqual({
      lines: [
        { line: 1_000, ...lineAt(1_000), ranges: [[0, 'function x999Error('.length]] },
        { line: 2_000, ...lineAt(2_000), ranges: [[0, 'function x1999Error('.length]] },
      ],
      count: 5,
      complete: true,
    });
    expect(hits).toEqual(findHits(content, compiled, 2, never, null));
    expect(findHits(content, compiled, 2, () => true, requires).complete).toBe(false);
  });
});
