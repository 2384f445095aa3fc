/**
 * Lines numbered from bytes: equal lines (their '\n' included) get equal ids across versions,
 * a last line without '\n' differs from the same text with one, and a line's text reads back
 * as its bytes.
 */
import { ByteLineIds } from '@gitdex/diff';
import { splitRecords } from '@gitdex/diff';

describe('lines numbered from bytes', () => {
  it('numbers equal lines alike across versions, as the lines split from text compare', () => {
    const ids = new ByteLineIds();
    const texts = ['a\nb\r\nc\n', 'c\na\nb\r\n\nc', '', 'é\n\u0000x\na', 'a'];
    const numbered = texts.map((t) => ids.of(Buffer.from(t, 'utf8')));
    const byText = new Map<string, number>();
    texts.forEach((t, v) => {
      const lines = splitRecords(Buffer.from(t, 'utf8').toString('latin1'));
      expect(numbered[v]!.lines.length).toBe(lines.length);
      lines.forEach((line, i) => {
        expect(numbered[v]!.lines.at(i)).toBe(line);
        const id = numbered[v]!.ids[i]!;
        if (!byText.has(line)) byText.set(line, id);
        expect(id).toBe(byText.get(line));
      });
    });
    expect(new Set(byText.values()).size).toBe(byText.size);
    expect(ids.size).toBe(byText.size);
  });

  it('keeps ids distinct past many lines (the table grows)', () => {
    const ids = new ByteLineIds();
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i % 7000}\n`).join('');
    const { ids: numbered } = ids.of(Buffer.from(text));
    expect(ids.size).toBe(7000);
    expect(numbered[7000]).toBe(numbered[0]);
    expect(numbered[6999]).not.toBe(numbered[0]);
  });
});
