/**
 * Rename detection as `git diff -M` does it (diffcore-rename.c): identical contents first (a
 * source not used yet and with the same file name preferred), then pairs whose file names are
 * each unique on both sides at a higher bar, then every remaining pair, best scores first, each
 * source used once. Ties break the way git breaks them, so the same pairs come out.
 */
import { DEFAULT_RENAME_SCORE, estimateSimilarity, MAX_SCORE, type SimilarityInput } from './similarity';

export interface RenameCandidate {
  readonly path: string;
  readonly sha: string;
  /** git file mode ('100644', '120000', ...); regular when absent */
  readonly mode?: string;
  readonly similarity: SimilarityInput;
}

export interface Rename {
  readonly from: number;
  readonly to: number;
  /** 0..MAX_SCORE */
  readonly score: number;
}

export interface RenameOptions {
  readonly minimumScore?: number;
  /** git's diff.renameLimit default: past sources × destinations > limit², only exact renames */
  readonly renameLimit?: number;
}

const NUM_CANDIDATE_PER_DST = 4;
const BASENAME_FACTOR = 0.5;
export const DEFAULT_RENAME_LIMIT = 1000;

function isRegular(c: RenameCandidate): boolean {
  return c.mode === undefined || c.mode === '100644' || c.mode === '100755';
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function basenameSame(a: string, b: string): boolean {
  return baseName(a) === baseName(b);
}

interface Score {
  src: number;
  dst: number;
  score: number;
  nameScore: number;
}

function scoreCompare(a: Score, b: Score): number {
  if (a.dst < 0) return b.dst >= 0 ? 1 : 0;
  if (b.dst < 0) return -1;
  if (a.score === b.score) return b.nameScore - a.nameScore;
  return b.score - a.score;
}

/** sources: removed files; destinations: added files; both in path order. */
export function detectRenames(sources: readonly RenameCandidate[], destinations: readonly RenameCandidate[], options: RenameOptions = {}): Rename[] {
  const minimumScore = options.minimumScore ?? DEFAULT_RENAME_SCORE;
  const renameLimit = options.renameLimit ?? DEFAULT_RENAME_LIMIT;
  const renames: Rename[] = [];
  if (sources.length === 0 || destinations.length === 0) return renames;
  const used = new Uint8Array(sources.length);
  const renamed = new Uint8Array(destinations.length);
  const record = (from: number, to: number, score: number): void => {
    used[from] = 1;
    renamed[to] = 1;
    renames.push({ from, to, score });
  };

  // Exact renames: the same blob.
  const bySha = new Map<string, number[]>();
  sources.forEach((s, i) => {
    const list = bySha.get(s.sha) ?? [];
    list.push(i);
    bySha.set(s.sha, list);
  });
  destinations.forEach((d, di) => {
    let best = -1;
    let bestScore = -1;
    let tries = 100;
    for (const si of bySha.get(d.sha) ?? []) {
      const s = sources[si]!;
      if ((!isRegular(s) || !isRegular(d)) && s.mode !== d.mode) continue;
      if (used[si]) continue;
      const score = 1 + Number(basenameSame(s.path, d.path));
      if (score > bestScore) {
        best = si;
        bestScore = score;
        if (score === 2) break;
      }
      if (!--tries) break;
    }
    if (best >= 0) record(best, di, MAX_SCORE);
  });
  if (minimumScore === MAX_SCORE) return renames;

  const similarity = (si: number, di: number, min: number): number => {
    const s = sources[si]!;
    const d = destinations[di]!;
    if (!isRegular(s) || !isRegular(d)) return 0;
    return estimateSimilarity(s.similarity, d.similarity, min);
  };

  // Files whose name is unique among the sources left and among the destinations left.
  const minBasenameScore = minimumScore + Math.trunc(BASENAME_FACTOR * (MAX_SCORE - minimumScore));
  const uniqueNames = (paths: [string, number][]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const [path, i] of paths) {
      const b = baseName(path);
      m.set(b, m.has(b) ? -1 : i);
    }
    return m;
  };
  const srcNames = uniqueNames(sources.flatMap((s, i) => (used[i] ? [] : [[s.path, i] as [string, number]])));
  const dstNames = uniqueNames(destinations.flatMap((d, i) => (renamed[i] ? [] : [[d.path, i] as [string, number]])));
  sources.forEach((s, si) => {
    if (used[si]) return;
    const b = baseName(s.path);
    const di = dstNames.get(b);
    if (di === undefined || di === -1 || srcNames.get(b) === -1 || renamed[di]) return;
    const score = similarity(si, di, minBasenameScore);
    if (score >= minBasenameScore) record(si, di, score);
  });

  const srcLeft = sources.flatMap((_, i) => (used[i] ? [] : [i]));
  const dstLeft = destinations.flatMap((_, i) => (renamed[i] ? [] : [i]));
  if (srcLeft.length === 0 || dstLeft.length === 0) return renames;
  if (renameLimit > 0 && dstLeft.length * srcLeft.length > renameLimit * renameLimit) return renames;

  const matrix: Score[] = [];
  for (const di of dstLeft) {
    const m: Score[] = Array.from({ length: NUM_CANDIDATE_PER_DST }, () => ({ src: 0, dst: -1, score: 0, nameScore: 0 }));
    for (const si of srcLeft) {
      const o: Score = {
        src: si,
        dst: di,
        score: similarity(si, di, minimumScore),
        nameScore: Number(basenameSame(sources[si]!.path, destinations[di]!.path)),
      };
      let worst = 0;
      for (let i = 1; i < NUM_CANDIDATE_PER_DST; i++) if (scoreCompare(m[i]!, m[worst]!) > 0) worst = i;
      if (scoreCompare(m[worst]!, o) > 0) m[worst] = o;
    }
    matrix.push(...m);
  }
  // Array.prototype.sort is stable, as git's STABLE_QSORT is.
  matrix.sort(scoreCompare);
  for (const m of matrix) {
    if (m.dst < 0 || m.score < minimumScore) break;
    if (renamed[m.dst] || used[m.src]) continue;
    record(m.src, m.dst, m.score);
  }
  return renames;
}
