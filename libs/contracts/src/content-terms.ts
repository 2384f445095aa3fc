/**
 * Content terms: what lets an index find the files that may contain a substring. Both
 * sides derive them the same way — from content when it is indexed, from query text when it
 * is planned — so a file that contains a substring always holds every term of it.
 *
 * A text's terms are three kinds, each a function of a few consecutive units only (so a
 * substring's terms are terms of any text that contains it):
 *
 * - **folded trigrams**: every trigram of the folded text;
 * - **hump trigrams**, in their own case: the ASCII trigrams with a lower-case letter right
 *   before an upper-case one (`asE`, `sEr` of `hasError`). Folded trigrams of identifiers
 *   are English fragments every big file holds; the humps are not: `hasError` had 6,629
 *   candidate files among 55,000 by its folded trigrams and 94 with its humps, for 4.4 %
 *   more terms;
 * - **hump grams**, in their own case: printable ASCII units (no space) around a hump, three
 *   from the upper-case letter on and three or four before it (`rseErr` and `arseErr` of
 *   `parseError`). A hump trigram pairs a word's last letter with the next word's first, so
 *   `parentCount` is still `ntC` and `tCo`, which 758 of 55,000 files hold; with its grams
 *   `entCou` and `rentCou`, 13. Over the 60 first-ask words of the benchmark the median of
 *   candidate files went from 18 to 3, the slowest from 758 to 101, for 6 % more terms
 *   (docs/search.md).
 *
 * A case-sensitive search (an upper-case letter in its text) asks for humps and grams too
 * (queryTermCodes). A hump trigram always holds an upper-case ASCII letter and a folded one
 * never does, and a gram is six or seven units long, so no two kinds share a term.
 *
 * Folding is per UTF-16 unit and context-free (so it never changes a string's length and
 * a substring's fold is a substring of the content's fold): ASCII letters lower-cased,
 * other units lower-cased when that gives one unit, and U+017F (long s) to "s", as RE2's
 * case folding pairs it with s. Terms that hold a line break, ASCII white space (space,
 * tab, CR, VT, FF) or half of a surrogate pair are left out: a line-based match never
 * crosses a line, a lone surrogate is not a valid term, and the terms with white space
 * were 28 % of a large repository's postings and about half of what indexing the terms
 * cost Elasticsearch, while they narrowed only phrase searches, whose words keep their own
 * terms (docs/search.md, "2026-12-03: no terms with white space").
 */

const FOLD = buildFoldTable();

function buildFoldTable(): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) {
      table[code] = code;
      continue;
    }
    const lower = String.fromCharCode(code).toLowerCase();
    table[code] = lower.length === 1 ? lower.charCodeAt(0) : code;
  }
  table[0x17f] = 0x73;
  return table;
}

/** The fold of one UTF-16 unit (see above). */
export function foldUnit(code: number): number {
  return FOLD[code] as number;
}

/** The fold of a whole string, unit by unit. */
export function foldText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += String.fromCharCode(FOLD[text.charCodeAt(i)] as number);
  return out;
}

/**
 * Whether no term may hold this unit (see above): a line break, ASCII white space, a surrogate
 * half. Runs on every unit indexed: most units are above 0x20 and below 0xd800, so they pass
 * two comparisons.
 */
function breaksTerms(code: number): boolean {
  return code <= 0x20 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : code >= 0xd800 && code <= 0xdfff;
}

const isLowerAscii = (code: number): boolean => code >= 0x61 && code <= 0x7a;
const isUpperAscii = (code: number): boolean => code >= 0x41 && code <= 0x5a;

/** Whether a trigram code is a hump trigram's (it holds an upper-case ASCII letter, which no folded trigram does). */
export function isHumpTrigramCode(code: number): boolean {
  return code < ASCII_CODES && (isUpperAscii(code >> 14) || isUpperAscii((code >> 7) & 0x7f) || isUpperAscii(code & 0x7f));
}

/**
 * ASCII trigrams (7 bits a unit) are de-duplicated in a table of stamps: an entry equal to
 * the current stamp was seen in this call, so the table never needs clearing. Other
 * trigrams go through a Set. Both keep first-seen order.
 */
const ASCII_STAMPS = new Uint32Array(1 << 21);
let stamp = 0;

/** The stamp after `previous` for a table of stamps; when the stamps wrap, the table is cleared so no old entry reads as current. */
function nextStamp(previous: number, table: Uint32Array): number {
  const next = previous === 0xffffffff ? 1 : previous + 1;
  if (next === 1) table.fill(0);
  return next;
}

/** Added to the code of a trigram that holds a unit above 0x7f, above every ASCII code and every packed wide trigram (< 2^48). */
const WIDE = 2 ** 48;
const ASCII_CODES = 1 << 21;
/**
 * Added to the packed units (7 bits each) of a hump gram to make its code: a six-unit gram
 * (42 bits) above every wide trigram's code (< 2^49), a seven-unit one (49 bits) above every
 * six's; all exact in a double. The six units are three before the hump's upper-case letter
 * and three from it; the seven, one more before.
 */
const SIX_UNIT_GRAM = 2 ** 49;
const SEVEN_UNIT_GRAM = 2 ** 50;
const SIX_UNITS = 2 ** 42;

/** Printable ASCII other than space: the units of a gram, and of a term a `text` word writes as itself. */
const isPrintableAscii = (code: number): boolean => code > 0x20 && code < 0x7f;

/**
 * Reused between calls (grown when a text needs more): the terms of the last text
 * collected, as small integers so the hot loops stay in int32: an ASCII trigram's code, or
 * for any other -(1 + its index in `wideCodes`).
 */
let codeBuffer = new Int32Array(1 << 14);
let wideCodes: number[] = [];
/** Reused between calls: where the last text collected has an upper-case letter right after a lower-case one. */
let humpAt = new Int32Array(1 << 12);

/** The code (see contentTermCodes) of entry `i` of codeBuffer. */
function codeAt(i: number): number {
  const entry = codeBuffer[i] as number;
  return entry >= 0 ? entry : (wideCodes[-1 - entry] as number);
}

/**
 * Collects the distinct content terms of a text into `codeBuffer` and returns how many:
 * its trigrams (folded, and humps in their case) in first-seen order, then its hump grams
 * in first-seen order. Hot on the indexing path: the single loop behind every form of
 * content terms.
 */
function collectCodes(text: string): number {
  stamp = nextStamp(stamp, ASCII_STAMPS);
  const current = stamp;
  // A text of n units has at most n - 2 trigrams, as many hump trigrams and fewer grams.
  if (codeBuffer.length < 3 * text.length) codeBuffer = new Int32Array(Math.max(3 * text.length, codeBuffer.length * 2));
  if (humpAt.length < text.length) humpAt = new Int32Array(Math.max(text.length, humpAt.length * 2));
  const out = codeBuffer;
  wideCodes = [];
  let count = 0;
  let humps = 0;
  let wide: Set<number> | null = null;
  let a = -1;
  let b = -1;
  // The raw (unfolded) units of a and b, for the humps.
  let rawA = -1;
  let rawB = -1;
  for (let i = 0; i < text.length; i += 1) {
    const raw = text.charCodeAt(i);
    if (breaksTerms(raw)) {
      a = -1;
      b = -1;
      continue;
    }
    const c = FOLD[raw] as number;
    if (a >= 0) {
      if ((a | b | c) < 0x80) {
        const key = (a << 14) | (b << 7) | c;
        if (ASCII_STAMPS[key] !== current) {
          ASCII_STAMPS[key] = current;
          out[count++] = key;
        }
        // A hump trigram (see above); the rarer test, upper case, comes first: this runs on
        // every unit of every file indexed. A hump is noted for the grams only here, where a,
        // b and c are ASCII: every gram holds a's unit (two before the upper-case letter).
        const humpHere = isUpperAscii(raw) && isLowerAscii(rawB);
        if (humpHere) humpAt[humps++] = i;
        if ((rawA | rawB | raw) < 0x80 && (humpHere || (isUpperAscii(rawB) && isLowerAscii(rawA)))) {
          const hump = (rawA << 14) | (rawB << 7) | raw;
          if (ASCII_STAMPS[hump] !== current) {
            ASCII_STAMPS[hump] = current;
            out[count++] = hump;
          }
        }
      } else {
        wide ??= new Set<number>();
        const packed = WIDE + a * 0x100000000 + b * 0x10000 + c;
        if (!wide.has(packed)) {
          wide.add(packed);
          out[count++] = -wideCodes.push(packed);
        }
      }
    }
    a = b;
    b = c;
    rawA = rawB;
    rawB = raw;
  }
  return count + collectGrams(text, humps, count);
}

/**
 * The hump grams already collected from the current text: an open-addressed table of their
 * units (three and three, 21 bits each, and the unit before for a seven-unit gram, 0 for a
 * six), whose slots are live when they hold the current stamp, so it is never cleared
 * between texts. A Set of the grams' codes, which are doubles above 2^49, cost a quarter of
 * the time of collecting a source file's terms.
 */
let gramSlots = 1 << 12;
let gramStamps = new Uint32Array(gramSlots);
let gramUnits = new Int32Array(3 * gramSlots);
let gramStamp = 0;

/** Appends the distinct hump grams around the first `humps` entries of humpAt to codeBuffer at `from`; returns how many. */
function collectGrams(text: string, humps: number, from: number): number {
  if (humps === 0) return 0;
  // Two grams a hump at most, in a table kept at most half full.
  if (gramSlots < 4 * humps) {
    while (gramSlots < 4 * humps) gramSlots *= 2;
    gramStamps = new Uint32Array(gramSlots);
    gramUnits = new Int32Array(3 * gramSlots);
    gramStamp = 0;
  }
  gramStamp = nextStamp(gramStamp, gramStamps);
  let count = 0;
  for (let h = 0; h < humps; h += 1) {
    const upper = humpAt[h] as number;
    if (upper < 3 || upper + 3 > text.length) continue;
    const high = gramUnitsAt(text, upper - 3);
    const low = high < 0 ? -1 : gramUnitsAt(text, upper);
    if (low < 0) continue;
    const six = high * 0x200000 + low;
    if (firstGram(high, low, 0)) codeBuffer[from + count++] = -wideCodes.push(SIX_UNIT_GRAM + six);
    // The seven units hold the six, so they are a gram only where the six are.
    const before = upper >= 4 ? text.charCodeAt(upper - 4) : 0;
    if (isPrintableAscii(before) && firstGram(high, low, before)) codeBuffer[from + count++] = -wideCodes.push(SEVEN_UNIT_GRAM + before * SIX_UNITS + six);
  }
  return count;
}

/** Three units from `start` packed at 7 bits each, or -1 when one of them is no gram unit. */
function gramUnitsAt(text: string, start: number): number {
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  return isPrintableAscii(a) && isPrintableAscii(b) && isPrintableAscii(c) ? (a << 14) | (b << 7) | c : -1;
}

/** Whether this gram is new in the current text (and notes it). */
function firstGram(high: number, low: number, before: number): boolean {
  const mask = gramSlots - 1;
  let slot = (Math.imul(high, 0x9e3779b1) ^ Math.imul(low ^ (before << 21), 0x85ebca77)) >>> 7;
  for (; ; slot += 1) {
    slot &= mask;
    if (gramStamps[slot] !== gramStamp) break;
    if (gramUnits[3 * slot] === high && gramUnits[3 * slot + 1] === low && gramUnits[3 * slot + 2] === before) return false;
  }
  gramStamps[slot] = gramStamp;
  gramUnits[3 * slot] = high;
  gramUnits[3 * slot + 1] = low;
  gramUnits[3 * slot + 2] = before;
  return true;
}

/**
 * The distinct content terms of a text as numbers (trigrams in first-seen order, then hump
 * grams): an all-ASCII trigram is `a << 14 | b << 7 | c` (< 2^21), any other trigram
 * `2^48 + a·2^32 + b·2^16 + c`, a gram its length's base plus its units at 7 bits each (see
 * SIX_UNIT_GRAM; all exact in a double). One code per term, one term per code.
 */
export function contentTermCodes(text: string): number[] {
  const count = collectCodes(text);
  const out = new Array<number>(count);
  for (let i = 0; i < count; i += 1) out[i] = codeAt(i);
  return out;
}

/** The string of a term code: 3 units for a trigram, 6 or 7 for a gram. */
export function termOfCode(code: number): string {
  if (code < ASCII_CODES) return asciiTrigram(code);
  if (code >= SIX_UNIT_GRAM) return gramOfCode(code);
  const packed = code - WIDE;
  return String.fromCharCode(Math.floor(packed / 0x100000000), Math.floor(packed / 0x10000) % 0x10000, packed % 0x10000);
}

function asciiTrigram(code: number): string {
  return String.fromCharCode(code >> 14, (code >> 7) & 0x7f, code & 0x7f);
}

function gramOfCode(code: number): string {
  const units = Buffer.allocUnsafe(7);
  return units.toString('latin1', 0, writeGramUnits(code, units, 0));
}

/** Base-32 digits: only `[0-9a-v]`, so a tokenizer that splits at every other ASCII character (SQLite FTS5's `ascii`) keeps a word whole. */
const DIGITS = '0123456789abcdefghijklmnopqrstuv';
const DIGIT_BYTES = Buffer.from(DIGITS, 'latin1');
const ASCII_WORD = 5;
const WIDE_WORD = 10;
const SIX_UNIT_WORD = 9;
const SEVEN_UNIT_WORD = 11;
const LONGEST_WORD = SEVEN_UNIT_WORD;

/**
 * How a term is written as an index word.
 * - `digits`: its code in base 32, 5 digits for an ASCII trigram (21 bits), 10 for any other
 *   trigram (its 48 packed bits), 9 and 11 for the grams of six and seven units (42 and 49
 *   bits): for a tokenizer that splits at punctuation (SQLite FTS5's `ascii`).
 * - `text`: a trigram's own units where every one is printable ASCII other than space, else
 *   its digits: for a tokenizer that splits only at white space (Elasticsearch's `whitespace`,
 *   which splits at no printable ASCII unit). About a third fewer bytes than the digits, which
 *   the engine reads, tokenizes and hashes for every posting. A hump gram is written as its
 *   **bucket**, one of 2^16 words of 4 digits (gramBucket): the grams were two thirds of
 *   the distinct words (822,000 of 1.24 million in the benchmark's large repository) for 8 % of
 *   the postings, and each distinct word is an entry the engine looks up in memory for every
 *   posting; with the buckets its bulk of that repository with the terms took about 4 % less
 *   time, and a bucket still narrows as the gram did (the candidates of 120 first-ask words:
 *   787 against 776 on the 60 the gram shapes were chosen on, 1,574 against 1,569 on 60 kept
 *   apart; docs/search.md). A bucket only widens what a query asks for, never narrows it.
 * In both, the length tells the kinds apart (digits: 5, 9, 10, 11; text: 3, 4, 5, 10), so
 * distinct trigrams have distinct words and no gram's word is a trigram's.
 */
export type TermWordForm = 'digits' | 'text';

/** Writes the word of a term code at `at` in the given form and returns where it ends. */
function writeWord(code: number, into: Uint8Array, at: number, form: TermWordForm): number {
  if (form === 'text') {
    if (code >= SIX_UNIT_GRAM) return writeBucketWord(gramBucket(code), into, at);
    const a = code >> 14;
    const b = (code >> 7) & 0x7f;
    const c = code & 0x7f;
    if (code < ASCII_CODES && isPrintableAscii(a) && isPrintableAscii(b) && isPrintableAscii(c)) {
      into[at] = a;
      into[at + 1] = b;
      into[at + 2] = c;
      return at + 3;
    }
  }
  if (code < ASCII_CODES) {
    into[at] = DIGIT_BYTES[code >> 20] as number;
    into[at + 1] = DIGIT_BYTES[(code >> 15) & 31] as number;
    into[at + 2] = DIGIT_BYTES[(code >> 10) & 31] as number;
    into[at + 3] = DIGIT_BYTES[(code >> 5) & 31] as number;
    into[at + 4] = DIGIT_BYTES[code & 31] as number;
    return at + ASCII_WORD;
  }
  const [base, length] = code >= SEVEN_UNIT_GRAM ? [SEVEN_UNIT_GRAM, SEVEN_UNIT_WORD] : code >= SIX_UNIT_GRAM ? [SIX_UNIT_GRAM, SIX_UNIT_WORD] : [WIDE, WIDE_WORD];
  let rest = code - base;
  for (let i = length - 1; i >= 0; i -= 1) {
    into[at + i] = DIGIT_BYTES[rest % 32] as number;
    rest = Math.floor(rest / 32);
  }
  return at + length;
}

/** A gram's units (7 bits each, all printable: isPrintableAscii), as its term. */
function writeGramUnits(code: number, into: Uint8Array, at: number): number {
  const length = code >= SEVEN_UNIT_GRAM ? 7 : 6;
  let rest = code - (length === 7 ? SEVEN_UNIT_GRAM : SIX_UNIT_GRAM);
  for (let i = length - 1; i >= 0; i -= 1) {
    into[at + i] = rest % 0x80;
    rest = Math.floor(rest / 0x80);
  }
  return at + length;
}

const GRAM_BUCKET_BITS = 16;
const BUCKET_WORD = 4;

/** The bucket of a gram's code (see TermWordForm): a hash of all its bits, so grams that share units spread over the buckets. */
function gramBucket(code: number): number {
  // A gram's code is below 2^51: its low 32 bits and the rest, each exact.
  const low = code % 0x100000000;
  const high = (code - low) / 0x100000000;
  let hash = Math.imul(low | 0, 0x9e3779b1) ^ Math.imul(high, 0x85ebca77);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return hash >>> (32 - GRAM_BUCKET_BITS);
}

function writeBucketWord(bucket: number, into: Uint8Array, at: number): number {
  into[at] = DIGIT_BYTES[bucket >> 15] as number;
  into[at + 1] = DIGIT_BYTES[(bucket >> 10) & 31] as number;
  into[at + 2] = DIGIT_BYTES[(bucket >> 5) & 31] as number;
  into[at + 3] = DIGIT_BYTES[bucket & 31] as number;
  return at + BUCKET_WORD;
}

/** The word of one term code (see TermWordForm), as a query names it. */
export function termWordOfCode(code: number, form: TermWordForm = 'digits'): string {
  const word = Buffer.allocUnsafe(LONGEST_WORD);
  return word.toString('latin1', 0, writeWord(code, word, 0, form));
}

/** The distinct content terms of a text as strings, in the order of contentTermCodes. */
export function contentTerms(text: string): string[] {
  const count = collectCodes(text);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i += 1) {
    const entry = codeBuffer[i] as number;
    out[i] = entry >= 0 ? asciiTrigram(entry) : termOfCode(wideCodes[-1 - entry] as number);
  }
  return out;
}

/** Reused between calls: the words are written as bytes and read out as one string. */
let wordBytes = Buffer.allocUnsafe(1 << 16);
/** The buckets written for the current text (see stamps above): a bucket is written once a text. */
const BUCKET_STAMPS = new Uint32Array(1 << GRAM_BUCKET_BITS);
let bucketStamp = 0;

/**
 * The words of the distinct content terms of a text (see TermWordForm), space-separated, in the
 * order of contentTermCodes: what an index with a plain word tokenizer stores for the text.
 * In the `text` form grams that share a bucket give one word.
 */
export function contentTermWords(text: string, form: TermWordForm = 'digits'): string {
  const count = collectCodes(text);
  const most = count * (LONGEST_WORD + 1);
  if (wordBytes.length < most) wordBytes = Buffer.allocUnsafe(Math.max(most, wordBytes.length * 2));
  bucketStamp = nextStamp(bucketStamp, BUCKET_STAMPS);
  let end = 0;
  for (let i = 0; i < count; i += 1) {
    const code = codeAt(i);
    const bucket = form === 'text' && code >= SIX_UNIT_GRAM ? gramBucket(code) : -1;
    if (bucket >= 0 && BUCKET_STAMPS[bucket] === bucketStamp) continue;
    if (end > 0) wordBytes[end++] = 0x20;
    if (bucket < 0) {
      end = writeWord(code, wordBytes, end, form);
      continue;
    }
    BUCKET_STAMPS[bucket] = bucketStamp;
    end = writeBucketWord(bucket, wordBytes, end);
  }
  return wordBytes.toString('latin1', 0, end);
}

/** The terms an index query asks for one substring, by default (queryTermCodes): both adapters ask the same. */
const QUERY_TERMS_PER_SUBSTRING = 24;

function spread<T>(items: T[], most: number): T[] {
  if (items.length <= most) return items;
  if (most <= 1) return items.slice(0, most);
  const step = (items.length - 1) / (most - 1);
  return Array.from({ length: most }, (_, i) => items[Math.round(i * step)] as T);
}

/**
 * The term codes an index query asks for a substring, at most `most`: a spread subset of
 * its content terms is as correct (weaker) and keeps the query small. Give the text as it
 * must occur for a case-sensitive search (its grams and humps, the rare terms, are asked for
 * first: grams up to a quarter of `most`, humps up to half), folded for a case-insensitive
 * one (it has neither).
 */
export function queryTermCodes(text: string, most = QUERY_TERMS_PER_SUBSTRING): number[] {
  const grams: number[] = [];
  const humps: number[] = [];
  const folded: number[] = [];
  for (const code of contentTermCodes(text)) (code >= SIX_UNIT_GRAM ? grams : isHumpTrigramCode(code) ? humps : folded).push(code);
  const keptGrams = spread(grams, Math.min(grams.length, Math.floor(most / 4)));
  const keptHumps = spread(humps, Math.min(humps.length, Math.floor(most / 2)));
  return [...keptGrams, ...keptHumps, ...spread(folded, most - keptGrams.length - keptHumps.length)];
}
