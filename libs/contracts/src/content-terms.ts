/**
 * Content trigrams: the terms that let an index find the files that may contain a
 * substring. Both sides fold the same way — content when it is indexed, query text when
 * it is planned — so a file that contains a substring always holds every trigram of it.
 *
 * Folding is per UTF-16 unit and context-free (so it never changes a string's length and
 * a substring's fold is a substring of the content's fold): ASCII letters lower-cased,
 * other units lower-cased when that gives one unit, and U+017F (long s) to "s", as RE2's
 * case folding pairs it with s. Trigrams that hold a line break or half of a surrogate
 * pair are left out: a line-based match never crosses a line, and a lone surrogate is
 * not a valid term.
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

function excluded(code: number): boolean {
  return code === 10 || (code >= 0xd800 && code <= 0xdfff);
}

/**
 * ASCII trigrams (7 bits a unit) are de-duplicated in a table of stamps: an entry equal to
 * the current stamp was seen in this call, so the table never needs clearing. Other
 * trigrams go through a Set. Both keep first-seen order.
 */
const ASCII_STAMPS = new Uint32Array(1 << 21);
let stamp = 0;

/**
 * The distinct folded trigrams of a text, as 3-unit strings (in first-seen order).
 * Hot on the indexing path: trigrams are packed into numbers while de-duplicating.
 */
export function contentTrigrams(text: string): string[] {
  stamp = stamp === 0xffffffff ? 1 : stamp + 1;
  if (stamp === 1) ASCII_STAMPS.fill(0);
  const current = stamp;
  const out: string[] = [];
  let wide: Set<number> | null = null;
  let a = -1;
  let b = -1;
  for (let i = 0; i < text.length; i += 1) {
    const raw = text.charCodeAt(i);
    if (excluded(raw)) {
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
          out.push(String.fromCharCode(a, b, c));
        }
      } else {
        wide ??= new Set<number>();
        const packed = a * 0x100000000 + b * 0x10000 + c;
        if (!wide.has(packed)) {
          wide.add(packed);
          out.push(String.fromCharCode(a, b, c));
        }
      }
    }
    a = b;
    b = c;
  }
  return out;
}
