import fc from 'fast-check';
import { contentTrigramCodes, contentTrigrams, contentTrigramWords, foldText, isHumpTrigramCode, queryTrigramCodes, trigramOfCode, trigramWordOfCode } from '@gitdex/contracts';

/** The definition of a hump trigram: all ASCII, a lower-case letter right before an upper-case one. */
const isHump = (trigram: string) => [...trigram].every((unit) => unit.charCodeAt(0) < 0x80) && /[a-z][A-Z]/.test(trigram);

/** Trigrams of a text by position, leaving out those with a line break or a surrogate half. */
function trigramsAt(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= text.length; i += 1) {
    const trigram = text.slice(i, i + 3);
    if (!/[\n\ud800-\udfff]/.test(trigram)) out.push(trigram);
  }
  return out;
}

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

  it('match the trigrams of the folded text and the hump trigrams of the text, leaving out those with a line break or a surrogate half', () => {
    for (const text of [...SAMPLES, 'hasError isIteratorStart XMLHttpRequest aB\ncD', 'retryAfterMs\u212AelvinÉcole']) {
      const expected = new Set([...trigramsAt(foldText(text)), ...trigramsAt(text).filter(isHump)]);
      expect(new Set(contentTrigrams(text))).toEqual(expected);
      for (const code of contentTrigramCodes(text)) expect(isHumpTrigramCode(code)).toBe(isHump(trigramOfCode(code)));
    }
    expect(contentTrigrams('hasError')).toEqual(['has', 'ase', 'asE', 'ser', 'sEr', 'err', 'rro', 'ror']);
  });

  it('hold every trigram a query asks for, in its case or folded, in the terms of any text that contains it', () => {
    const units = fc.constantFrom('a', 'b', 'E', 'R', 'r', '_', ' ', '\n', 'é', 'É', '\u212A', 'k', '\uD800', '日');
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 40 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 30 }), (text, from, length, most) => {
        const start = text.length === 0 ? 0 : from % text.length;
        const piece = text.slice(start, start + (length % 20));
        const held = new Set(contentTrigramCodes(text));
        for (const query of [piece, foldText(piece)]) {
          const asked = queryTrigramCodes(query, most);
          expect(asked.length).toBeLessThanOrEqual(most);
          for (const code of asked) expect(held.has(code)).toBe(true);
        }
        // A folded query has no humps: a case-insensitive search never asks for one.
        expect(queryTrigramCodes(foldText(piece), 30).some(isHumpTrigramCode)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('ask for the humps of a query first, up to half of the terms, and spread the folded ones over the rest', () => {
    const asked = queryTrigramCodes('AbstractMethodHasImplementation', 24).map(trigramOfCode);
    expect(asked).toHaveLength(24);
    expect(asked.filter((t) => isHump(t))).toEqual(['ctM', 'tMe', 'odH', 'dHa', 'asI', 'sIm']);
    expect(asked.slice(6).every((t) => t === t.toLowerCase())).toBe(true);
    expect(queryTrigramCodes('hasError', 2).map(trigramOfCode)).toEqual(['asE', 'has']);
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
