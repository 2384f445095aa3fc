/**
 * The preparation git's xdiff makes before its Myers pass (xprepare.c): lines become equivalence
 * classes, the common head and tail are trimmed, and lines with no match on the other side (or
 * with very many matches, inside a run of unmatched ones) are marked changed up front so the
 * search runs only over the rest. The choices here change which of several minimal diffs comes
 * out, so they follow git's rules and constants exactly.
 */

/** A side's lines (an array of them, or lines made from bytes only when read). */
export interface Lines {
  readonly length: number;
  at(index: number): string | undefined;
}

/** One side of the comparison, as the Myers pass and the compaction read it. */
export interface Side {
  readonly lines: Lines;
  /** the equivalence class of each line (equal lines, equal class) */
  readonly classes: Int32Array;
  /** changed[i + 1] is line i's mark; changed[0] and changed[n + 1] stay 0 as sentinels */
  readonly changed: Uint8Array;
  /** the lines left to the Myers pass, by index, and their classes */
  referenceIndex: Int32Array;
  referenceClasses: Int32Array;
}

const MAX_EQ_LIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;

const KEEP = 0;
const DISCARD = 1;
const INVESTIGATE = 2;

/** git's integer square-root approximation (xutils.c): a power of two near sqrt(n). */
export function bogoSqrt(n: number): number {
  let i = 1;
  for (let v = n; v > 0; v = Math.floor(v / 4)) i *= 2;
  return i;
}

/** Line ids shared by several diffs (blame diffs every version against the next): equal lines, equal id. */
export class LineIds {
  private readonly ids = new Map<string, number>();

  of(lines: Lines): Int32Array {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines.at(i)!;
      let id = this.ids.get(line);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  }

  get size(): number {
    return this.ids.size;
  }
}

/** Ids of both sides' lines from one numbering (the count of distinct lines it has seen), when a caller diffs many versions. */
export interface KnownIds {
  readonly ids: { readonly size: number };
  readonly ids1: Int32Array;
  readonly ids2: Int32Array;
}

export function prepare(lines1: Lines, lines2: Lines, known?: KnownIds): [Side, Side] {
  const ids = known?.ids ?? new LineIds();
  const classes1 = known?.ids1 ?? (ids as LineIds).of(lines1);
  const classes2 = known?.ids2 ?? (ids as LineIds).of(lines2);
  const classCount = ids.size;
  const count1 = new Int32Array(classCount);
  const count2 = new Int32Array(classCount);
  for (const c of classes1) count1[c]!++;
  for (const c of classes2) count2[c]!++;
  const side1 = newSide(lines1, classes1);
  const side2 = newSide(lines2, classes2);

  // Trim the common head and tail.
  const n1 = lines1.length;
  const n2 = lines2.length;
  const lim = Math.min(n1, n2);
  let start = 0;
  while (start < lim && side1.classes[start] === side2.classes[start]) start++;
  let tail = 0;
  while (tail < lim - start && side1.classes[n1 - 1 - tail] === side2.classes[n2 - 1 - tail]) tail++;
  const end1 = n1 - tail - 1;
  const end2 = n2 - tail - 1;

  cleanup(side1, start, end1, count2, bogoSqrt(n1));
  cleanup(side2, start, end2, count1, bogoSqrt(n2));
  return [side1, side2];
}

function newSide(lines: Lines, classes: Int32Array): Side {
  return {
    lines,
    classes,
    changed: new Uint8Array(lines.length + 2),
    referenceIndex: new Int32Array(0),
    referenceClasses: new Int32Array(0),
  };
}

function cleanup(side: Side, start: number, end: number, otherCounts: Int32Array, sqrt: number): void {
  const len = end - start + 1;
  const mlim = Math.min(sqrt, MAX_EQ_LIMIT);
  const action = new Uint8Array(Math.max(len, 0));
  for (let i = 0; i < len; i++) {
    const nm = otherCounts[side.classes[i + start]!] ?? 0;
    action[i] = nm === 0 ? DISCARD : nm < mlim ? KEEP : INVESTIGATE;
  }
  const index = new Int32Array(Math.max(len, 0));
  const classes = new Int32Array(Math.max(len, 0));
  let kept = 0;
  for (let i = 0; i < len; i++) {
    let a = action[i]!;
    if (a === INVESTIGATE) a = cleanMultimatch(action, i, len) ? DISCARD : KEEP;
    if (a === KEEP) {
      index[kept] = i + start;
      classes[kept++] = side.classes[i + start]!;
    } else side.changed[i + start + 1] = 1;
  }
  side.referenceIndex = index.subarray(0, kept);
  side.referenceClasses = classes.subarray(0, kept);
}

/**
 * A line with many matches is dropped only when it sits in a run that is mostly unmatched lines,
 * looking at most SIMSCAN_WINDOW lines each way.
 */
function cleanMultimatch(action: Uint8Array, i: number, len: number): boolean {
  const s = Math.max(0, i - SIMSCAN_WINDOW);
  const e = Math.min(len - 1, i + SIMSCAN_WINDOW);
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    const a = action[i - r];
    if (a === DISCARD) rdis0++;
    else if (a === INVESTIGATE) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    const a = action[i + r];
    if (a === DISCARD) rdis1++;
    else if (a === INVESTIGATE) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}
