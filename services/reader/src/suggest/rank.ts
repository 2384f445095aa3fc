import { squashed } from '@gitdex/terms';
import { editDistances } from '@gitdex/terms';

/**
 * Path-aware ranking of suggestion candidates: what the caller most likely meant by a
 * path that is misspelt, partial (typed so far), misplaced, in the wrong case or case
 * style, or with the wrong extension. Pure and deterministic: equal scores keep path order.
 *
 * A path is judged as a file name and a folder. The name carries most of the evidence
 * (people remember names better than where files live), the folder the rest; a query
 * that is a prefix of a whole path (as-you-type) is judged as such first.
 */

/** Local aliases: a global lookup per call is slow inside vm contexts (jest), and this is the hot loop. */
const { min, max, abs, floor, round: roundOf } = Math;

export type SuggestReason = 'exact' | 'case' | 'style' | 'prefix' | 'name' | 'extension' | 'typo' | 'folder' | 'fuzzy';

export interface RankedPath {
  path: string;
  /** 0..1, higher is better. */
  score: number;
  reason: SuggestReason;
}

interface Terms {
  raw: string;
  lower: string;
  name: string;
  nameLower: string;
  stemLower: string;
  extension: string;
  folderLower: string;
  folderSegments: string[];
  /** The folder with each segment squashed: the same in any case style. */
  squashedFolder: string;
  squashedName: string;
  squashedStem: string;
  squashedPath: string;
  tokens: string[];
  /** Ends in a separator ("ping.js.", "src/http-"): typed so far, so it is not the same name in another style. */
  open: boolean;
}

const NAME_WEIGHT = 0.78;
const FOLDER_WEIGHT = 0.22;
/** Folder score when the query names no folder: the same for every candidate. */
const NO_FOLDER = 0.75;

export function rankPaths(query: string, candidates: Iterable<string>, limit: number): RankedPath[] {
  const q = terms(query.replace(/^\/+/, ''));
  const seen = new Set<string>();
  const ranked: RankedPath[] = [];
  for (const path of candidates) {
    if (seen.has(path)) continue;
    seen.add(path);
    const { score, reason } = scorePath(q, candidateTerms(path));
    if (score > 0) ranked.push({ path, score, reason });
  }
  ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return ranked.slice(0, max(0, limit)).map((r) => ({ ...r, score: roundOf(min(1, r.score) * 1000) / 1000 }));
}

/** The score of one candidate path for one query; exported for tests and tuning. */
export function scorePathPair(query: string, path: string): { score: number; reason: SuggestReason } {
  return scorePath(terms(query.replace(/^\/+/, '')), terms(path));
}

/**
 * Terms of candidate paths, kept across queries: a repository's paths come back query after
 * query (as-you-type sends one per key), and taking a path apart costs more than scoring it.
 * Bounded; the oldest entries go first.
 */
const CACHED_TERMS = 20_000;
const termsCache = new Map<string, Terms>();

function candidateTerms(path: string): Terms {
  let found = termsCache.get(path);
  if (found === undefined) {
    found = terms(path);
    if (termsCache.size >= CACHED_TERMS) termsCache.delete(termsCache.keys().next().value as string);
    termsCache.set(path, found);
  }
  return found;
}

function terms(path: string): Terms {
  const lower = path.toLowerCase();
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const nameLower = name.toLowerCase();
  const dot = nameLower.lastIndexOf('.');
  const stemLower = dot > 0 ? nameLower.slice(0, dot) : nameLower;
  const extension = dot > 0 ? nameLower.slice(dot + 1) : '';
  const folderLower = slash < 0 ? '' : lower.slice(0, slash);
  return {
    raw: path,
    lower,
    name,
    nameLower,
    stemLower,
    extension,
    folderLower,
    folderSegments: folderLower === '' ? [] : folderLower.split('/'),
    squashedFolder: folderLower.split('/').map(squashed).join('/'),
    squashedName: squashed(name),
    squashedStem: squashed(stemLower),
    squashedPath: lower.split('/').map(squashed).join('/'),
    tokens: words(name),
    open: /[^\p{L}\p{N}/]$/u.test(path),
  };
}

function scorePath(q: Terms, p: Terms): { score: number; reason: SuggestReason } {
  if (q.raw === p.raw) return { score: 1, reason: 'exact' };
  if (q.lower === p.lower) return { score: 0.995, reason: 'case' };
  if (!q.open && q.squashedPath === p.squashedPath) return { score: 0.985, reason: 'style' };

  // The tiny length term makes the closer completion win among otherwise equal ones.
  const tidy = -0.002 * p.folderSegments.length - 0.00001 * p.raw.length;

  let best = { score: 0, reason: 'fuzzy' as SuggestReason };
  const consider = (score: number, reason: SuggestReason) => {
    if (score > best.score) best = { score, reason };
  };

  // As-you-type: the query is the start of the whole path.
  if (q.lower.length >= 2 && p.lower.startsWith(q.lower)) consider(0.9 + 0.08 * (q.lower.length / p.lower.length), 'prefix');

  const name = nameScore(q, p);
  const folder = q.folderSegments.length === 0 ? NO_FOLDER : folderScore(q, p);
  let reason = name.reason;
  if (name.score >= 0.97 && q.folderSegments.length > 0 && folder < 0.97) reason = 'folder';
  consider(NAME_WEIGHT * name.score + FOLDER_WEIGHT * folder, reason);
  if (best.score <= 0) return best;
  return { score: max(0.001, best.score + tidy), reason: best.reason };
}

/** How well the file names match, 0..1. */
function nameScore(q: Terms, p: Terms): { score: number; reason: SuggestReason } {
  const qn = q.nameLower;
  const pn = p.nameLower;
  if (qn === '') return { score: 0.6, reason: 'prefix' }; // "folder/" typed so far
  if (qn === pn) return { score: q.name === p.name ? 1 : 0.985, reason: q.name === p.name ? 'name' : 'case' };
  if (!q.open && q.squashedName === p.squashedName) return { score: 0.965, reason: 'style' };
  if (!q.open && q.squashedStem === p.squashedStem && q.squashedStem !== '') {
    // Same name, other or no extension: "server" or "server.js" for "server.ts".
    // Unless the query is the start of a longer name: "index.te" for "index.test.js".
    // A JavaScript name for a TypeScript file is how ESM TypeScript imports it, from the
    // folder the import names: nearly the same file there. Another extension is another
    // file, below the start of a longer name ("he.tes" is more likely "he.test.ts" than "he.js").
    if (q.extension === '' || !pn.startsWith(qn)) return { score: q.extension === '' ? 0.94 : twins(q.extension, p.extension) && importable(q, p) ? 0.93 : 0.88, reason: 'extension' };
  }

  let score = 0;
  let reason: SuggestReason = 'fuzzy';
  const take = (value: number, why: SuggestReason) => {
    if (value > score) {
      score = value;
      reason = why;
    }
  };

  // As-you-type on the name: "helpe" for "helpers.ts".
  if (pn.startsWith(qn)) take(0.82 + 0.14 * (qn.length / pn.length), 'prefix');
  else if (!q.open && q.squashedName.length > 0 && p.squashedName.startsWith(q.squashedName)) take(0.8 + 0.14 * (q.squashedName.length / p.squashedName.length), 'prefix');

  // Typos: transposed, missing, extra or wrong letters, on the name and on the stem.
  // The distance is at least the difference in length: pairs too far apart skip the table.
  const longest = max(qn.length, pn.length);
  const lengthGap = abs(qn.length - pn.length);
  if (lengthGap <= max(1, floor(longest / 4))) take(typoScore(editDistances(qn, pn).full, longest, min(qn.length, pn.length)), 'typo');
  else take(0.45 * (1 - lengthGap / longest), 'fuzzy');
  const qs = q.squashedStem;
  const ps = p.squashedStem;
  const typedSoFar = q.extension === '' && qs.length >= 4 && ps.length > qs.length;
  const stemLongest = max(qs.length, ps.length);
  if (qs.length > 0 && ps.length > 0 && (typedSoFar || abs(qs.length - ps.length) <= max(1, floor(stemLongest / 4)))) {
    const stems = editDistances(qs, ps);
    const extensionPenalty = sameOrNoExtension(q, p) ? 0 : 0.04;
    // A query ending in a separator goes on ("transport-"): it is no whole stem to misspell.
    if (!q.open) take(typoScore(stems.full, stemLongest, min(qs.length, ps.length)) - extensionPenalty - 0.01, 'typo');
    // A typo in a name typed so far: "helpres" for "helpers.ts", "srever" for "server.ts".
    if (typedSoFar && stems.prefixLength < ps.length) {
      const partial = typoScore(stems.prefix, qs.length, qs.length);
      take(partial * (0.86 + 0.08 * (stems.prefixLength / ps.length)) - 0.02, 'typo');
    }
  }

  // Part of the name: "client" for "http-client.ts".
  if (qn.length >= 3 && pn.includes(qn)) take(0.62 + 0.25 * (qn.length / pn.length), 'fuzzy');
  // Only where the extensions agree: "x.d.ts.map" is not part of "x.d.ts".
  else if (q.squashedStem.length >= 3 && sameOrNoExtension(q, p) && p.squashedName.includes(q.squashedStem)) take(0.6 + 0.25 * (q.squashedStem.length / p.squashedName.length), 'fuzzy');

  // Shared words in another order: "client-http" for "http-client".
  if (q.tokens.length > 1) {
    const shared = q.tokens.filter((t) => p.tokens.includes(t)).length;
    if (shared > 0) take(0.55 * (shared / max(q.tokens.length, p.tokens.length)) + 0.3 * (shared === q.tokens.length ? 1 : 0), 'fuzzy');
  }
  return { score, reason };
}

/**
 * A name with `distance` edits: one edit in a long name is still a strong match, the
 * same edit in a three-letter name is not. Names shorter than the edits score nothing.
 */
function typoScore(distance: number, longest: number, shortest: number): number {
  if (distance === 0) return 0.95;
  if (shortest <= distance || longest === 0) return 0;
  const allowed = max(1, floor(longest / 4));
  if (distance > allowed) return 0.45 * (1 - distance / longest);
  return 0.9 - 0.1 * (distance - 1) - 0.25 * (distance / longest);
}

/** How well the folders match, 0..1, when the query names one. */
function folderScore(q: Terms, p: Terms): number {
  const qf = q.folderLower;
  const pf = p.folderLower;
  if (qf === pf) return 1;
  const qs = q.folderSegments;
  const ps = p.folderSegments;
  if (q.squashedFolder === p.squashedFolder) return 0.97;
  // Leading folders left out: "utils/x.ts" for "src/utils/x.ts".
  if (pf.endsWith(`/${qf}`)) return 0.93;
  // Folders typed so far: "src/comp/x" for "src/components/x". Not "src/x" for "src/utils/x":
  // a query that goes on to a file name gave its folders whole, so that is a folder left out.
  if (qs.length === ps.length && qs.every((segment, i) => (ps[i] as string).startsWith(segment))) return 0.9;
  // Folders left out in between: "src/x.ts" for "src/utils/x.ts".
  if (isSubsequence(qs, ps)) return 0.6 + 0.25 * (qs.length / ps.length);
  // Otherwise the share of folders that line up, misspelt ones counting in part.
  return 0.85 * (alignedSegments(qs, ps) / max(qs.length, ps.length));
}

/** Longest common subsequence of folder segments, a misspelt segment counting by its similarity. */
function alignedSegments(a: string[], b: string[]): number {
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    const rowAbove = table[i - 1] as number[];
    const current = table[i] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      let similarity = 0;
      if (x === y) similarity = 1;
      else if (min(x.length, y.length) >= 3) {
        const s = 1 - editDistances(x, y).full / max(x.length, y.length);
        if (s >= 0.6) similarity = 0.9 * s;
      }
      current[j] = max(rowAbove[j] as number, current[j - 1] as number, (rowAbove[j - 1] as number) + similarity);
    }
  }
  return (table[a.length] as number[])[b.length] as number;
}

const SCRIPT_TWINS: Record<string, string> = { js: 'ts', mjs: 'mts', cjs: 'cts', jsx: 'tsx' };

/** The path is where an import written as the query points: the query names no folder, or the path's (or its end). */
function importable(q: Terms, p: Terms): boolean {
  return q.folderLower === '' || p.folderLower === q.folderLower || p.folderLower.endsWith(`/${q.folderLower}`);
}

/** Extensions of the same source before and after compiling TypeScript. */
function twins(a: string, b: string): boolean {
  return SCRIPT_TWINS[a] === b || SCRIPT_TWINS[b] === a;
}

/** The query names no extension, or the path's. */
function sameOrNoExtension(q: Terms, p: Terms): boolean {
  return q.extension === '' || q.extension === p.extension;
}

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let i = 0;
  for (const item of haystack) if (i < needle.length && item === needle[i]) i += 1;
  return i === needle.length;
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
