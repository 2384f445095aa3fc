import { breaksTerms, foldUnit, isLowerAscii, isPrintableAscii, isUpperAscii } from './fold';
import { ASCII_CODES, SEVEN_UNIT_GRAM, SIX_UNIT_GRAM, SIX_UNITS, WIDE, nextStamp } from './term-codes';

/**
 * Collects the distinct content terms of one text at a time into buffers it owns and reuses
 * (grown when a text needs more): the single loop behind every form of content terms, hot on
 * the indexing path. Reuse is the point: the ASCII stamp table alone is 8 MiB, and a table of
 * stamps is never cleared between texts (an entry equal to the current stamp was seen in this
 * text). A collector's results are read before its next `collect`; one thread uses it at a time.
 */
export class TermCollector {
  /** ASCII trigrams (7 bits a unit) seen in the current text; other trigrams go through a Set. Both keep first-seen order. */
  private readonly asciiStamps = new Uint32Array(ASCII_CODES);
  private stamp = 0;
  /**
   * The terms of the last text collected, as small integers so the hot loops stay in int32:
   * an ASCII trigram's code, or for any other -(1 + its index in `wideCodes`).
   */
  codes = new Int32Array(1 << 14);
  wideCodes: number[] = [];
  /** Where the last text collected has an upper-case letter right after a lower-case one. */
  private humpAt = new Int32Array(1 << 12);
  /**
   * The hump grams already collected from the current text: an open-addressed table of their
   * units (three and three, 21 bits each, and the unit before for a seven-unit gram, 0 for a
   * six), whose slots are live when they hold the current stamp. A Set of the grams' codes,
   * which are doubles above 2^49, cost a quarter of the time of collecting a source file's terms.
   */
  private gramSlots = 1 << 12;
  private gramStamps = new Uint32Array(this.gramSlots);
  private gramUnits = new Int32Array(3 * this.gramSlots);
  private gramStamp = 0;

  /** The code (see contentTermCodes) of entry `i` of the last text collected. */
  codeAt(i: number): number {
    const entry = this.codes[i] as number;
    return entry >= 0 ? entry : (this.wideCodes[-1 - entry] as number);
  }

  /**
   * Collects the distinct content terms of a text and returns how many: its trigrams (folded,
   * and humps in their case) in first-seen order, then its hump grams in first-seen order.
   */
  collect(text: string): number {
    this.stamp = nextStamp(this.stamp, this.asciiStamps);
    const current = this.stamp;
    const stamps = this.asciiStamps;
    // A text of n units has at most n - 2 trigrams, as many hump trigrams and fewer grams.
    if (this.codes.length < 3 * text.length) this.codes = new Int32Array(Math.max(3 * text.length, this.codes.length * 2));
    if (this.humpAt.length < text.length) this.humpAt = new Int32Array(Math.max(text.length, this.humpAt.length * 2));
    const out = this.codes;
    const humpAt = this.humpAt;
    const wideCodes: number[] = [];
    this.wideCodes = wideCodes;
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
      const c = foldUnit(raw);
      if (a >= 0) {
        if ((a | b | c) < 0x80) {
          const key = (a << 14) | (b << 7) | c;
          if (stamps[key] !== current) {
            stamps[key] = current;
            out[count++] = key;
          }
          // A hump trigram; the rarer test, upper case, comes first: this runs on every unit of
          // every file indexed. A hump is noted for the grams only here, where a, b and c are
          // ASCII: every gram holds a's unit (two before the upper-case letter).
          const humpHere = isUpperAscii(raw) && isLowerAscii(rawB);
          if (humpHere) humpAt[humps++] = i;
          if ((rawA | rawB | raw) < 0x80 && (humpHere || (isUpperAscii(rawB) && isLowerAscii(rawA)))) {
            const hump = (rawA << 14) | (rawB << 7) | raw;
            if (stamps[hump] !== current) {
              stamps[hump] = current;
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
    return count + this.collectGrams(text, humps, count);
  }

  /** Appends the distinct hump grams around the first `humps` entries of humpAt at `from`; returns how many. */
  private collectGrams(text: string, humps: number, from: number): number {
    if (humps === 0) return 0;
    // Two grams a hump at most, in a table kept at most half full.
    if (this.gramSlots < 4 * humps) {
      while (this.gramSlots < 4 * humps) this.gramSlots *= 2;
      this.gramStamps = new Uint32Array(this.gramSlots);
      this.gramUnits = new Int32Array(3 * this.gramSlots);
      this.gramStamp = 0;
    }
    this.gramStamp = nextStamp(this.gramStamp, this.gramStamps);
    let count = 0;
    for (let h = 0; h < humps; h += 1) {
      const upper = this.humpAt[h] as number;
      if (upper < 3 || upper + 3 > text.length) continue;
      const high = gramUnitsAt(text, upper - 3);
      const low = high < 0 ? -1 : gramUnitsAt(text, upper);
      if (low < 0) continue;
      const six = high * 0x200000 + low;
      if (this.firstGram(high, low, 0)) this.codes[from + count++] = -this.wideCodes.push(SIX_UNIT_GRAM + six);
      // The seven units hold the six, so they are a gram only where the six are.
      const before = upper >= 4 ? text.charCodeAt(upper - 4) : 0;
      if (isPrintableAscii(before) && this.firstGram(high, low, before)) this.codes[from + count++] = -this.wideCodes.push(SEVEN_UNIT_GRAM + before * SIX_UNITS + six);
    }
    return count;
  }

  /** Whether this gram is new in the current text (and notes it). */
  private firstGram(high: number, low: number, before: number): boolean {
    const mask = this.gramSlots - 1;
    const stamps = this.gramStamps;
    const units = this.gramUnits;
    let slot = (Math.imul(high, 0x9e3779b1) ^ Math.imul(low ^ (before << 21), 0x85ebca77)) >>> 7;
    for (; ; slot += 1) {
      slot &= mask;
      if (stamps[slot] !== this.gramStamp) break;
      if (units[3 * slot] === high && units[3 * slot + 1] === low && units[3 * slot + 2] === before) return false;
    }
    stamps[slot] = this.gramStamp;
    units[3 * slot] = high;
    units[3 * slot + 1] = low;
    units[3 * slot + 2] = before;
    return true;
  }
}

/** Three units from `start` packed at 7 bits each, or -1 when one of them is no gram unit. */
function gramUnitsAt(text: string, start: number): number {
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  return isPrintableAscii(a) && isPrintableAscii(b) && isPrintableAscii(c) ? (a << 14) | (b << 7) | c : -1;
}
