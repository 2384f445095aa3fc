/**
 * git's rename similarity (diffcore-delta.c, diffcore-rename.c estimate_similarity): each file is
 * cut into spans that end at a newline or after 64 bytes, each span hashed; the score is the
 * share of the larger file's bytes whose spans the source also has, out of MAX_SCORE. A CR before
 * an LF is skipped in text so that CRLF and LF copies of a file score as the same file.
 */
import { isBinary } from './records';

export const MAX_SCORE = 60000;
/** `-M` with no number: 50 % */
export const DEFAULT_RENAME_SCORE = 30000;

const HASHBASE = 107927;

export type SpanCounts = ReadonlyMap<number, number>;

export function spanCounts(bytes: Uint8Array): SpanCounts {
  const counts = new Map<number, number>();
  const isText = !isBinary(bytes);
  let n = 0;
  let accum1 = 0;
  let accum2 = 0;
  const add = (): void => {
    const hashval = ((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASHBASE;
    counts.set(hashval, (counts.get(hashval) ?? 0) + n);
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (isText && c === 0x0d && i + 1 < bytes.length && bytes[i + 1] === 0x0a) continue;
    const old1 = accum1;
    accum1 = ((accum1 << 7) ^ (accum2 >>> 25)) >>> 0;
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0;
    accum1 = (accum1 + c) >>> 0;
    if (++n < 64 && c !== 0x0a) continue;
    add();
    n = 0;
    accum1 = 0;
    accum2 = 0;
  }
  if (n > 0) add();
  return counts;
}

/** The bytes of dst that src already had (diffcore_count_changes' src_copied). */
function copiedBytes(src: SpanCounts, dst: SpanCounts): number {
  let copied = 0;
  for (const [hash, srcCount] of src) {
    const dstCount = dst.get(hash) ?? 0;
    copied += Math.min(srcCount, dstCount);
  }
  return copied;
}

export interface SimilarityInput {
  readonly size: number;
  readonly counts: () => SpanCounts;
}

/** 0..MAX_SCORE; 0 when the sizes alone rule out reaching minimumScore (git skips those). */
export function estimateSimilarity(src: SimilarityInput, dst: SimilarityInput, minimumScore: number): number {
  const maxSize = Math.max(src.size, dst.size);
  const baseSize = Math.min(src.size, dst.size);
  const deltaSize = maxSize - baseSize;
  if (maxSize * (MAX_SCORE - minimumScore) < deltaSize * MAX_SCORE) return 0;
  if (dst.size === 0) return 0;
  return Math.floor((copiedBytes(src.counts(), dst.counts()) * MAX_SCORE) / maxSize);
}
