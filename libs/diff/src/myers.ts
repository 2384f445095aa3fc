/**
 * git's Myers pass (xdiffi.c, xdl_recs_cmp and xdl_split): divide and conquer on the middle snake,
 * with git's cost limits so that a large, very different pair of files ends in bounded time with a
 * near-minimal answer. The same heuristics are what make git pick one diff over another equally
 * short one, so their constants are git's.
 */
import type { Side } from './prepare';
import { bogoSqrt } from './prepare';

const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const LINE_MAX = 0x7fffffff;

interface Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface Env {
  readonly h1: Int32Array;
  readonly h2: Int32Array;
  readonly kvdf: Int32Array;
  readonly kvdb: Int32Array;
  /** where diagonal 0 sits in the two vectors */
  readonly base: number;
  readonly mxcost: number;
}

export function markChanges(side1: Side, side2: Side): void {
  const n1 = side1.referenceClasses.length;
  const n2 = side2.referenceClasses.length;
  const ndiags = n1 + n2 + 3;
  const env: Env = {
    h1: side1.referenceClasses,
    h2: side2.referenceClasses,
    kvdf: new Int32Array(ndiags + 1),
    kvdb: new Int32Array(ndiags + 1),
    base: n2 + 1,
    mxcost: Math.max(bogoSqrt(ndiags), MAX_COST_MIN),
  };
  // An explicit stack instead of recursion: a long, very different file would otherwise nest deep.
  const stack: [number, number, number, number, boolean][] = [[0, n1, 0, n2, false]];
  while (stack.length > 0) {
    const box = stack.pop()!;
    let [off1, lim1, off2, lim2] = box;
    const needMin = box[4];
    while (off1 < lim1 && off2 < lim2 && env.h1[off1] === env.h2[off2]) {
      off1++;
      off2++;
    }
    while (off1 < lim1 && off2 < lim2 && env.h1[lim1 - 1] === env.h2[lim2 - 1]) {
      lim1--;
      lim2--;
    }
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) side2.changed[side2.referenceIndex[off2]! + 1] = 1;
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) side1.changed[side1.referenceIndex[off1]! + 1] = 1;
    } else {
      const spl = split(env, off1, lim1, off2, lim2, needMin);
      // The second half is pushed first so the first half runs first, as git's recursion does
      // (the order does not change the marks; it keeps the two easy to compare when debugging).
      stack.push([spl.i1, lim1, spl.i2, lim2, spl.minHi]);
      stack.push([off1, spl.i1, off2, spl.i2, spl.minLo]);
    }
  }
}

function split(env: Env, off1: number, lim1: number, off2: number, lim2: number, needMin: boolean): Split {
  const { h1, h2, kvdf, kvdb, base } = env;
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[base + fmid] = off1;
  kvdb[base + bmid] = lim1;

  for (let ec = 1; ; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[base + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[base + ++fmax + 1] = -1;
    else --fmax;

    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kvdf[base + d - 1]! >= kvdf[base + d + 1]! ? kvdf[base + d - 1]! + 1 : kvdf[base + d + 1]!;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && h1[i1] === h2[i2]) {
        i1++;
        i2++;
      }
      if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
      kvdf[base + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[base + d]! <= i1) {
        return { i1, i2, minLo: true, minHi: true };
      }
    }

    if (bmin > dmin) kvdb[base + --bmin - 1] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[base + ++bmax + 1] = LINE_MAX;
    else --bmax;

    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kvdb[base + d - 1]! < kvdb[base + d + 1]! ? kvdb[base + d - 1]! : kvdb[base + d + 1]! - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && h1[i1 - 1] === h2[i2 - 1]) {
        i1--;
        i2--;
      }
      if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
      kvdb[base + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[base + d]!) {
        return { i1, i2, minLo: true, minHi: true };
      }
    }

    if (needMin) continue;

    // Past the trigger cost with a good snake: take a diagonal that went far enough, if any.
    if (gotSnake && ec > HEUR_MIN_COST) {
      let best = 0;
      let found: Split | undefined;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kvdf[base + d]!;
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
          for (let k = 1; h1[i1 - k] === h2[i2 - k]; k++) {
            if (k === SNAKE_CNT) {
              best = v;
              found = { i1, i2, minLo: true, minHi: false };
              break;
            }
          }
        }
      }
      if (found) return found;

      best = 0;
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kvdb[base + d]!;
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
          for (let k = 0; h1[i1 + k] === h2[i2 + k]; k++) {
            if (k === SNAKE_CNT - 1) {
              best = v;
              found = { i1, i2, minLo: false, minHi: true };
              break;
            }
          }
        }
      }
      if (found) return found;
    }

    // Too costly: take the furthest-reaching point either way.
    if (ec >= env.mxcost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kvdf[base + d]!, lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kvdb[base + d]!);
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) {
        return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
      }
      return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
    }
  }
}
