import { isPrintableAscii } from './fold';
import { ASCII_CODES, SEVEN_UNIT_GRAM, SIX_UNIT_GRAM, WIDE, nextStamp } from './term-codes';
import type { TermCollector } from './term-collector';

/** Base-32 digits: only `[0-9a-v]`, so a tokenizer that splits at every other ASCII character (SQLite FTS5's `ascii`) keeps a word whole. */
const DIGITS = '0123456789abcdefghijklmnopqrstuv';
const DIGIT_BYTES = Buffer.from(DIGITS, 'latin1');
const ASCII_WORD = 5;
const WIDE_WORD = 10;
const SIX_UNIT_WORD = 9;
const SEVEN_UNIT_WORD = 11;
const LONGEST_WORD = SEVEN_UNIT_WORD;
const GRAM_BUCKET_BITS = 16;
const BUCKET_WORD = 4;

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

/**
 * Writes the words of the terms a collector holds, into bytes it owns and reuses (grown when
 * a text needs more), read out as one string: what an index with a plain word tokenizer stores.
 */
export class TermWordWriter {
  private bytes = Buffer.allocUnsafe(1 << 16);
  /** The buckets written for the current text (stamped, never cleared): a bucket is written once a text. */
  private readonly bucketStamps = new Uint32Array(1 << GRAM_BUCKET_BITS);
  private bucketStamp = 0;

  /** The words of the first `count` terms of `terms`, space-separated; in the `text` form grams that share a bucket give one word. */
  write(terms: TermCollector, count: number, form: TermWordForm): string {
    const most = count * (LONGEST_WORD + 1);
    if (this.bytes.length < most) this.bytes = Buffer.allocUnsafe(Math.max(most, this.bytes.length * 2));
    const bytes = this.bytes;
    this.bucketStamp = nextStamp(this.bucketStamp, this.bucketStamps);
    let end = 0;
    for (let i = 0; i < count; i += 1) {
      const code = terms.codeAt(i);
      const bucket = form === 'text' && code >= SIX_UNIT_GRAM ? gramBucket(code) : -1;
      if (bucket >= 0 && this.bucketStamps[bucket] === this.bucketStamp) continue;
      if (end > 0) bytes[end++] = 0x20;
      if (bucket < 0) {
        end = writeWord(code, bytes, end, form);
        continue;
      }
      this.bucketStamps[bucket] = this.bucketStamp;
      end = writeBucketWord(bucket, bytes, end);
    }
    return bytes.toString('latin1', 0, end);
  }
}
