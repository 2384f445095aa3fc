import { contentTrigramCodes, contentTrigrams, contentTrigramWords, foldText, trigramOfCode, trigramWordOfCode } from '@gitdex/contracts';

/** Strings of every kind of unit the fold and the encoding treat apart. */
const SAMPLES = [
  'export function retryAfterMs(response) {\n  return Number(response.headers["retry-after"]) * 1000;\n}\n',
  'Café naïve ſtraße İstanbul ÉCOLE école',
  'emoji 😀 in 😀😀 text, \u0000\u0001 controls, \ttabs',
  'line one\nline two\r\nthree',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa AAAAAAAAAAAAAAA',
  '\u00ff\u0100\uffff\ufffe wide units, 日本語のテキスト',
];

describe('content trigram codes and words', () => {
  it('give one code, one trigram and one word per distinct folded trigram, in first-seen order', () => {
    for (const text of SAMPLES) {
      const codes = contentTrigramCodes(text);
      const trigrams = contentTrigrams(text);
      expect(codes.map(trigramOfCode)).toEqual(trigrams);
      expect(new Set(trigrams).size).toBe(trigrams.length);
      expect(contentTrigramWords(text)).toBe(codes.map(trigramWordOfCode).join(' '));
      // Words are only base-32 digits, 5 for an ASCII trigram and 10 for any other.
      for (const code of codes) {
        const word = trigramWordOfCode(code);
        const ascii = [...trigramOfCode(code)].every((unit) => unit.charCodeAt(0) < 0x80);
        expect(word).toMatch(ascii ? /^[0-9a-v]{5}$/ : /^[0-9a-v]{10}$/);
      }
    }
  });

  it('match the trigrams of the folded text, leaving out those with a line break or a surrogate half', () => {
    for (const text of SAMPLES) {
      const folded = foldText(text);
      const expected = new Set<string>();
      for (let i = 0; i + 3 <= folded.length; i += 1) {
        const trigram = folded.slice(i, i + 3);
        if (!/[\n\ud800-\udfff]/.test(trigram)) expected.add(trigram);
      }
      expect(new Set(contentTrigrams(text))).toEqual(expected);
    }
  });

  it('never give two trigrams the same word', () => {
    const words = new Map<string, string>();
    const units = [0, 0x20, 0x41, 0x61, 0x7a, 0x7f, 0x80, 0xe9, 0x17f, 0x3a3, 0x5d0, 0x3042, 0xfffd, 0xffff];
    for (const a of units)
      for (const b of units)
        for (const c of units) {
          const text = String.fromCharCode(a, b, c);
          for (const code of contentTrigramCodes(text)) {
            const trigram = trigramOfCode(code);
            const word = trigramWordOfCode(code);
            expect(words.get(word) ?? trigram).toBe(trigram);
            words.set(word, trigram);
          }
        }
    expect(words.size).toBeGreaterThan(1000);
  });

  it('hold every word of a substring in the words of a text that contains it, in both case modes', () => {
    const text = SAMPLES.join('\n');
    const held = new Set(contentTrigramWords(text).split(' '));
    for (let start = 0; start < text.length; start += 7) {
      const piece = text.slice(start, start + 12);
      for (const query of [piece, foldText(piece)]) {
        for (const word of contentTrigramCodes(foldText(query)).map(trigramWordOfCode)) expect(held.has(word)).toBe(true);
      }
    }
  });

  it('give no words for text under three units or all line breaks', () => {
    expect(contentTrigramWords('')).toBe('');
    expect(contentTrigramWords('ab')).toBe('');
    expect(contentTrigramWords('a\nbc\nd')).toBe('');
  });
});
