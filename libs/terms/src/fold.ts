/**
 * Folding and the unit classes terms are made of (see content-terms.ts). Folding is per UTF-16
 * unit and context-free, so it never changes a string's length and a substring's fold is a
 * substring of the content's fold: ASCII letters lower-cased, other units lower-cased when
 * that gives one unit, and U+017F (long s) to "s", as RE2's case folding pairs it with s.
 */

/** The fold of every UTF-16 unit: built once, read-only after. */
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
 * Whether no term may hold this unit: a line break, ASCII white space, a surrogate half.
 * Runs on every unit indexed: most units are above 0x20 and below 0xd800, so they pass two
 * comparisons.
 */
export function breaksTerms(code: number): boolean {
  return code <= 0x20 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : code >= 0xd800 && code <= 0xdfff;
}

export const isLowerAscii = (code: number): boolean => code >= 0x61 && code <= 0x7a;
export const isUpperAscii = (code: number): boolean => code >= 0x41 && code <= 0x5a;

/** Printable ASCII other than space: the units of a gram, and of a term a `text` word writes as itself. */
export const isPrintableAscii = (code: number): boolean => code > 0x20 && code < 0x7f;
