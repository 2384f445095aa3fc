import fc from 'fast-check';
import { contentTermCodes, contentTerms, contentTermWords, foldText, isHumpTrigramCode, queryTermCodes, termOfCode, termWordOfCode } from '@gitdex/terms';

/** The definition of a hump trigram: all ASCII, a lower-case letter right before an upper-case one. */
const isHump = (trigram: string) => [...trigram].every((unit) => unit.charCodeAt(0) < 0x80) && /[a-z][A-Z]/.test(trigram);

/** The definition of a hump gram: printable ASCII units, no space, three or four before an upper-case letter (the last of them lower-case) and three from it. */
const isGram = (units: string) => /^[\x21-\x7e]{2,3}[a-z][A-Z][\x21-\x7e]{2}$/.test(units);
const isGramTerm = (term: string) => term.length === 6 || term.length === 7;

function gramsAt(text: string): string[] {
  const out: string[] = [];
  for (const length of [6, 7]) for (let i = 0; i + length <= text.length; i += 1) if (isGram(text.slice(i, i + length))) out.push(text.slice(i, i + length));
  return out;
}

/** A text with more distinct terms than units: every trigram is a hump, every other position starts a gram. */
function alternatingCase(length: number): string {
  let state = 7;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    // xorshift32: letters without the short cycles of a linear congruential generator's low bits.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const letter = String.fromCharCode(0x61 + ((state >>> 0) % 26));
    out += i % 2 === 0 ? letter : letter.toUpperCase();
  }
  return out;
}

/** Trigrams of a text by position, leaving out those with a line break, ASCII white space or a surrogate half. */
function trigramsAt(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= text.length; i += 1) {
    const trigram = text.slice(i, i + 3);
    if (!/[\t\n\v\f\r \ud800-\udfff]/.test(trigram)) out.push(trigram);
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

describe('content term codes and words', () => {
  it('give one code, one term and one word per distinct term', () => {
    for (const text of SAMPLES) {
      const codes = contentTermCodes(text);
      const trigrams = contentTerms(text);
      expect(codes.map(termOfCode)).toEqual(trigrams);
      expect(new Set(trigrams).size).toBe(trigrams.length);
      expect(contentTermWords(text)).toBe(codes.map((code) => termWordOfCode(code)).join(' '));
      // Grams that share a bucket share a word, written once.
      expect(contentTermWords(text, 'text')).toBe([...new Set(codes.map((code) => termWordOfCode(code, 'text')))].join(' '));
      // Digits: only base-32 digits, 5 for an ASCII trigram, 10 for any other trigram, 9 and 11 for the grams of 6 and 7 units.
      // Text: a trigram itself where every unit is printable ASCII other than space, else its digits; a gram its bucket, 4 digits.
      for (const code of codes) {
        const word = termWordOfCode(code);
        const term = termOfCode(code);
        const ascii = [...term].every((unit) => unit.charCodeAt(0) < 0x80);
        const digits = term.length === 6 ? 9 : term.length === 7 ? 11 : ascii ? 5 : 10;
        expect(word).toMatch(new RegExp(`^[0-9a-v]{${digits}}$`));
        if (isGramTerm(term)) expect(termWordOfCode(code, 'text')).toMatch(/^[0-9a-v]{4}$/);
        else expect(termWordOfCode(code, 'text')).toBe(/^[\x21-\x7e]+$/.test(term) ? term : word);
      }
    }
  });

  it('match the trigrams of the folded text, the hump trigrams and the hump grams of the text, leaving out those with a line break, white space or a surrogate half', () => {
    const texts = [...SAMPLES, 'hasError isIteratorStart XMLHttpRequest aB\ncD', 'retryAfterMs\u212AelvinÉcole', 'ab cD\tefgHij(k xyZw\nabcDef', 'x.parentCount', alternatingCase(40_000)];
    for (const text of texts) {
      const expected = new Set([...trigramsAt(foldText(text)), ...trigramsAt(text).filter(isHump), ...gramsAt(text)]);
      const terms = contentTerms(text);
      expect(terms).toHaveLength(expected.size);
      expect(new Set(terms)).toEqual(expected);
      for (const code of contentTermCodes(text)) expect(isHumpTrigramCode(code)).toBe(termOfCode(code).length === 3 && isHump(termOfCode(code)));
    }
    expect(contentTerms('hasError')).toEqual(['has', 'ase', 'asE', 'ser', 'sEr', 'err', 'rro', 'ror', 'hasErr']);
    expect(contentTerms('ab cD\tefgHij(k').filter(isGramTerm)).toEqual(['efgHij']);
    expect(contentTerms('x.parentCount').filter(isGramTerm)).toEqual(['entCou', 'rentCou']);
    // White space splits terms as a line break does: no term spans it, the words keep theirs.
    expect(contentTerms('let aBc = def\tghi\r\n')).toEqual(['let', 'abc', 'aBc', 'def', 'ghi']);
  });

  it('hold every trigram a query asks for, in its case or folded, in the terms of any text that contains it', () => {
    const units = fc.constantFrom('a', 'b', 'E', 'R', 'r', '_', ' ', '\n', 'é', 'É', '\u212A', 'k', '\uD800', '日');
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 40 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 30 }), (text, from, length, most) => {
        const start = text.length === 0 ? 0 : from % text.length;
        const piece = text.slice(start, start + (length % 20));
        const held = new Set(contentTermCodes(text));
        for (const query of [piece, foldText(piece)]) {
          const asked = queryTermCodes(query, most);
          expect(asked.length).toBeLessThanOrEqual(most);
          for (const code of asked) expect(held.has(code)).toBe(true);
        }
        // A folded query has no humps and no grams: a case-insensitive search never asks for one.
        expect(queryTermCodes(foldText(piece), 30).some((code) => isHumpTrigramCode(code) || isGramTerm(termOfCode(code)))).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('ask for the grams of a query first, up to a quarter of the terms, then its humps, up to half, and spread the folded ones over the rest', () => {
    const asked = queryTermCodes('AbstractMethodHasImplementation', 24).map(termOfCode);
    expect(asked).toHaveLength(24);
    expect(asked.slice(0, 6)).toEqual(['actMet', 'ractMet', 'hodHas', 'thodHas', 'HasImp', 'dHasImp']);
    expect(asked.slice(6, 12)).toEqual(['ctM', 'tMe', 'odH', 'dHa', 'asI', 'sIm']);
    expect(asked.slice(12).every((t) => t.length === 3 && t === t.toLowerCase())).toBe(true);
    expect(queryTermCodes('hasError', 2).map(termOfCode)).toEqual(['asE', 'has']);
    expect(queryTermCodes('hasError', 4).map(termOfCode)).toEqual(['hasErr', 'asE', 'sEr', 'has']);
  });

  it.each(['digits', 'text'] as const)("never give two trigrams the same word, nor a gram a trigram's word (%s)", (form) => {
    const words = new Map<string, string>();
    const record = (text: string) => {
      for (const code of contentTermCodes(text)) {
        const term = termOfCode(code);
        const word = termWordOfCode(code, form);
        // In the text form grams share their buckets' words (see the next test), which no trigram has.
        const key = form === 'text' && isGramTerm(term) ? `gram:${word}` : term;
        expect(words.get(word) ?? key).toBe(key);
        words.set(word, key);
        // Elasticsearch's whitespace tokenizer must keep a word whole (Java's white space includes U+001C-U+001F).
        expect([...word].every((unit) => unit.charCodeAt(0) > 0x20 && !/\s/.test(unit))).toBe(true);
        expect(word).not.toBe('has-content');
      }
    };
    const units = [0, 0x20, 0x41, 0x61, 0x7a, 0x7f, 0x80, 0xe9, 0x17f, 0x3a3, 0x5d0, 0x3042, 0xfffd, 0xffff];
    for (const a of units) for (const b of units) for (const c of units) record(String.fromCharCode(a, b, c));
    for (const text of [...SAMPLES, alternatingCase(3_000), '~~~aZ~~ !!aZ!! zzzaA~~']) record(text);
    expect(words.size).toBeGreaterThan(1000);
    expect([...words.values()].filter((key) => isGramTerm(key) || key.startsWith('gram:')).length).toBeGreaterThan(1000);
  });

  it('write a gram as one of 2^16 buckets in the text form, spread over them, each once a text', () => {
    const grams = new Map<string, number>();
    for (const code of contentTermCodes(alternatingCase(20_000))) if (isGramTerm(termOfCode(code))) grams.set(termOfCode(code), code);
    const buckets = new Map<string, string[]>();
    for (const [gram, code] of grams) {
      const word = termWordOfCode(code, 'text');
      buckets.set(word, [...(buckets.get(word) ?? []), gram]);
    }
    // About 18,000 distinct grams thrown into 65,536 buckets: a fair hash leaves about 12 % of them sharing one.
    expect(grams.size).toBeGreaterThan(15_000);
    expect(buckets.size).toBeGreaterThan(0.85 * grams.size);
    expect(Math.max(...[...buckets.values()].map((shared) => shared.length))).toBeLessThan(8);
    // Two grams of one bucket in a text: their word is written once, and each still finds the text.
    const [first, second] = [...buckets.values()].find((shared) => shared.length >= 2) as [string, string];
    const text = `${first} ${second}`;
    const held = contentTermWords(text, 'text').split(' ');
    expect(new Set(held).size).toBe(held.length);
    for (const query of [first, second]) for (const code of queryTermCodes(query)) expect(held).toContain(termWordOfCode(code, 'text'));
  });

  it.each(['digits', 'text'] as const)('hold every word of a substring in the words of a text that contains it, in both case modes (%s)', (form) => {
    const text = SAMPLES.join('\n');
    const held = new Set(contentTermWords(text, form).split(' '));
    for (let start = 0; start < text.length; start += 7) {
      const piece = text.slice(start, start + 12);
      for (const query of [piece, foldText(piece)]) {
        for (const code of [...contentTermCodes(foldText(query)), ...queryTermCodes(query)]) expect(held.has(termWordOfCode(code, form))).toBe(true);
      }
    }
  });

  it('give no words for text under three units or all line breaks', () => {
    expect(contentTermWords('')).toBe('');
    expect(contentTermWords('ab')).toBe('');
    expect(contentTermWords('a\nbc\nd')).toBe('');
  });
});
