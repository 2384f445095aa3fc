import fc from 'fast-check';
import { LineIndex, numberLines, sliceLines, type Lines } from '../../src/read/line-slice';

/** Lines given one by one, as a file of them would hold. */
const of = (texts: string[]): Lines => new LineIndex(texts.map((t) => `${t}\n`).join(''));
const lines = (n: number, text = (i: number) => `line ${i}`) => of(Array.from({ length: n }, (_, i) => text(i + 1)));
const limits = { maxLines: 400, maxChars: 16_000 };
const all = (index: Lines) => Array.from({ length: index.count }, (_, i) => index.line(i + 1));

describe('LineIndex', () => {
  test('a final newline ends the last line; CRLF line ends are dropped', () => {
    expect(all(new LineIndex('a\nb\n'))).toEqual(['a', 'b']);
    expect(all(new LineIndex('a\nb'))).toEqual(['a', 'b']);
    expect(all(new LineIndex('a\r\nb\r\n'))).toEqual(['a', 'b']);
    expect(all(new LineIndex(''))).toEqual([]);
    expect(all(new LineIndex('\n'))).toEqual(['']);
    expect(all(new LineIndex('a\n\n'))).toEqual(['a', '']);
    expect(all(new LineIndex('a\r'))).toEqual(['a']);
    expect(all(new LineIndex('\r\n\r'))).toEqual(['', '']);
  });

  test('finds the lines a split on "\\n" finds, without the final empty one and each without its "\\r"', () => {
    const text = fc.array(fc.constantFrom('a', 'é', '😀', '\n', '\r', '\r\n', ' '), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const split = t === '' ? [] : t.split('\n');
        if (split[split.length - 1] === '') split.pop();
        expect(all(new LineIndex(t))).toEqual(split.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)));
      }),
    );
  });
});

describe('sliceLines', () => {
  test('reads from line 1 up to the line limit and says where to read on', () => {
    const slice = sliceLines(lines(1000), limits);
    expect(slice).toMatchObject({ startLine: 1, endLine: 400, totalLines: 1000, complete: false, truncated: true, nextStartLine: 401, cutLine: null });
    expect(slice.lines).toHaveLength(400);
  });

  test('a range inside the limits is served whole', () => {
    expect(sliceLines(lines(100), { ...limits, start: 10, end: 20 })).toMatchObject({ startLine: 10, endLine: 20, complete: false, truncated: false, nextStartLine: 21 });
    expect(sliceLines(lines(100), { ...limits, start: 90 })).toMatchObject({ startLine: 90, endLine: 100, complete: true, truncated: false, nextStartLine: null });
  });

  test('an end past the file ends at its last line', () => {
    expect(sliceLines(lines(5), { ...limits, start: 2, end: 50 })).toMatchObject({ startLine: 2, endLine: 5, complete: true, truncated: false });
  });

  test('a start past the end reads the last line', () => {
    const slice = sliceLines(lines(5), { ...limits, start: 99 });
    expect(slice).toMatchObject({ startLine: 5, endLine: 5, complete: true, nextStartLine: null });
    expect(slice.lines).toEqual(['line 5']);
  });

  test('stops before the character limit, counting each newline', () => {
    const slice = sliceLines(
      lines(100, () => 'x'.repeat(99)),
      { maxLines: 400, maxChars: 1000 },
    );
    expect(slice.endLine).toBe(10);
    expect(slice.lines.reduce((sum, line) => sum + line.length + 1, 0)).toBeLessThanOrEqual(1000);
    expect(slice).toMatchObject({ truncated: true, nextStartLine: 11 });
  });

  test('always gives at least one line: a line longer than the limit is cut', () => {
    const slice = sliceLines(of(['short', 'y'.repeat(5000), 'after']), { maxLines: 400, maxChars: 1000, start: 2 });
    expect(slice).toMatchObject({ startLine: 2, endLine: 2, cutLine: 2, cutLineLength: 5000, truncated: true, complete: false, nextStartLine: 3 });
    expect(slice.lines[0]!.length).toBeLessThan(1000);
    expect(numberLines(slice)).toContain('[line 2 cut: 5,000 characters');
  });

  test('never splits a surrogate pair when cutting', () => {
    const slice = sliceLines(of(['😀'.repeat(1000)]), { maxLines: 10, maxChars: 100 });
    const cut = slice.lines[0]!;
    expect(cut.length % 2).toBe(0);
    expect(cut).toBe('😀'.repeat(cut.length / 2));
  });

  test('an empty file has no lines and is complete', () => {
    expect(sliceLines(of([]), limits)).toMatchObject({ startLine: 0, endLine: 0, totalLines: 0, complete: true, nextStartLine: null });
  });
});

describe('numberLines', () => {
  test('numbers right-aligned to the widest, then a tab, then the line as it is', () => {
    const slice = sliceLines(
      lines(12, (i) => `  indented ${i}`),
      { ...limits, start: 8 },
    );
    expect(numberLines(slice).split('\n')).toEqual([' 8\t  indented 8', ' 9\t  indented 9', '10\t  indented 10', '11\t  indented 11', '12\t  indented 12']);
  });
});
