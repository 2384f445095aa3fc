import { isUpperAscii } from './fold';

/**
 * The numbers terms are handled as (see contentTermCodes): an all-ASCII trigram is
 * `a << 14 | b << 7 | c` (< 2^21), any other trigram `2^48 + a·2^32 + b·2^16 + c`, a gram its
 * length's base plus its units at 7 bits each. One code per term, one term per code.
 */

/** Codes below this are ASCII trigrams (7 bits a unit). */
export const ASCII_CODES = 1 << 21;
/** Added to the code of a trigram that holds a unit above 0x7f, above every ASCII code and every packed wide trigram (< 2^48). */
export const WIDE = 2 ** 48;
/**
 * Added to the packed units (7 bits each) of a hump gram to make its code: a six-unit gram
 * (42 bits) above every wide trigram's code (< 2^49), a seven-unit one (49 bits) above every
 * six's; all exact in a double. The six units are three before the hump's upper-case letter
 * and three from it; the seven, one more before.
 */
export const SIX_UNIT_GRAM = 2 ** 49;
export const SEVEN_UNIT_GRAM = 2 ** 50;
export const SIX_UNITS = 2 ** 42;

/** Whether a trigram code is a hump trigram's (it holds an upper-case ASCII letter, which no folded trigram does). */
export function isHumpTrigramCode(code: number): boolean {
  return code < ASCII_CODES && (isUpperAscii(code >> 14) || isUpperAscii((code >> 7) & 0x7f) || isUpperAscii(code & 0x7f));
}

/** The string of a term code: 3 units for a trigram, 6 or 7 for a gram. */
export function termOfCode(code: number): string {
  if (code < ASCII_CODES) return asciiTrigram(code);
  if (code >= SIX_UNIT_GRAM) return gramOfCode(code);
  const packed = code - WIDE;
  return String.fromCharCode(Math.floor(packed / 0x100000000), Math.floor(packed / 0x10000) % 0x10000, packed % 0x10000);
}

export function asciiTrigram(code: number): string {
  return String.fromCharCode(code >> 14, (code >> 7) & 0x7f, code & 0x7f);
}

function gramOfCode(code: number): string {
  const units = Buffer.allocUnsafe(7);
  return units.toString('latin1', 0, writeGramUnits(code, units, 0));
}

/** A gram's units (7 bits each, all printable), as its term. */
function writeGramUnits(code: number, into: Uint8Array, at: number): number {
  const length = code >= SEVEN_UNIT_GRAM ? 7 : 6;
  let rest = code - (length === 7 ? SEVEN_UNIT_GRAM : SIX_UNIT_GRAM);
  for (let i = length - 1; i >= 0; i -= 1) {
    into[at + i] = rest % 0x80;
    rest = Math.floor(rest / 0x80);
  }
  return at + length;
}

/**
 * The stamp after `previous` for a table of stamps (an entry equal to the current stamp was
 * seen in this text, so the table never needs clearing); when the stamps wrap, the table is
 * cleared so no old entry reads as current.
 */
export function nextStamp(previous: number, table: Uint32Array): number {
  const next = previous === 0xffffffff ? 1 : previous + 1;
  if (next === 1) table.fill(0);
  return next;
}
