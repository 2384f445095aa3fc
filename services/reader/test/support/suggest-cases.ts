import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { squashed } from '@gitdex/terms';
import { editDistance } from '@gitdex/terms';

/**
 * Misspelt, partial, misplaced and restyled versions of real paths, each with the path it
 * came from and the paths it fits as well (pathsFitting): the cases of the suggestion
 * accuracy tests and benchmarks. Cases with one right answer, as a hand-made test set holds,
 * are kept apart from ambiguous ones ("index.js" in a tree of forty index.js files), on which
 * no ranking can be right by more than luck unless any fitting path counts. Seeded, so a
 * run always makes the same cases.
 */

export type CaseKind =
  'transpose' | 'delete' | 'insert' | 'substitute' | 'case' | 'extension' | 'no-extension' | 'basename-only' | 'wrong-folder' | 'drop-folder' | 'style' | 'partial-path' | 'partial-name';

export interface SuggestCase {
  kind: CaseKind;
  query: string;
  /** The path the query was made from. */
  expected: string;
  /**
   * Every path the query fits as well as `expected` under its kind of mistake, `expected`
   * included (see fittingPaths): a right top-1 is any of them. One path for a case with one
   * right answer.
   */
  answers: string[];
}

export function loadPaths(name: string): string[] {
  return readFileSync(join(__dirname, '..', 'fixtures', `paths-${name}.txt`), 'utf8')
    .split('\n')
    .filter(Boolean);
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTENSION_SWAPS: Record<string, string> = {
  ts: 'js',
  js: 'ts',
  tsx: 'jsx',
  jsx: 'tsx',
  md: 'txt',
  json: 'yaml',
  yml: 'yaml',
  yaml: 'yml',
  mjs: 'js',
  cjs: 'js',
  map: 'json',
  py: 'pyi',
  go: 'rs',
  rs: 'go',
  txt: 'md',
  sh: 'bash',
  html: 'htm',
  css: 'scss',
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function split(path: string) {
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  const dot = name.indexOf('.', 1);
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const rest = dot > 0 ? name.slice(dot) : '';
  return { folder, name, stem, rest, join: (f: string, n: string) => (f ? `${f}/${n}` : n) };
}

/** Positions of letters in the stem (edits there look like typos, not like structure changes). */
function letterPositions(stem: string): number[] {
  const positions: number[] = [];
  for (let i = 0; i < stem.length; i += 1) if (/[a-z]/i.test(stem[i] as string)) positions.push(i);
  return positions;
}

function toWords(stem: string): string[] {
  return stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+|\s+/)
    .filter(Boolean);
}

type Maker = (path: string) => string | null;

/** How each kind of mistake turns a path into a query; null when the path has nothing to make it from. */
function makers(random: () => number, folders: string[]): Record<CaseKind, Maker> {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  return {
    transpose: (path) => {
      const s = split(path);
      const positions = letterPositions(s.stem).filter((i) => i + 1 < s.stem.length && /[a-z]/i.test(s.stem[i + 1] as string) && s.stem[i] !== s.stem[i + 1]);
      if (s.stem.length < 4 || positions.length === 0) return null;
      const i = pick(positions);
      const stem = s.stem.slice(0, i) + s.stem[i + 1] + s.stem[i] + s.stem.slice(i + 2);
      return s.join(s.folder, stem + s.rest);
    },
    delete: (path) => {
      const s = split(path);
      const positions = letterPositions(s.stem);
      if (s.stem.length < 5 || positions.length === 0) return null;
      const i = pick(positions);
      return s.join(s.folder, s.stem.slice(0, i) + s.stem.slice(i + 1) + s.rest);
    },
    insert: (path) => {
      const s = split(path);
      if (s.stem.length < 4) return null;
      const i = 1 + Math.floor(random() * (s.stem.length - 1));
      return s.join(s.folder, s.stem.slice(0, i) + pick([...LETTERS]) + s.stem.slice(i) + s.rest);
    },
    substitute: (path) => {
      const s = split(path);
      const positions = letterPositions(s.stem);
      if (s.stem.length < 5 || positions.length === 0) return null;
      const i = pick(positions);
      const letter = pick([...LETTERS].filter((l) => l !== (s.stem[i] as string).toLowerCase()));
      return s.join(s.folder, s.stem.slice(0, i) + letter + s.stem.slice(i + 1) + s.rest);
    },
    case: (path) => {
      const s = split(path);
      const options = [
        path.toLowerCase(),
        s.join(s.folder, s.name.toUpperCase()),
        s.join(s.folder, s.name.charAt(0).toUpperCase() === s.name.charAt(0) ? s.name.charAt(0).toLowerCase() + s.name.slice(1) : s.name.charAt(0).toUpperCase() + s.name.slice(1)),
      ];
      const query = pick(options.filter((o) => o !== path));
      return query ?? null;
    },
    extension: (path) => {
      const s = split(path);
      const dot = s.name.lastIndexOf('.');
      if (dot <= 0) return null;
      const ext = s.name.slice(dot + 1).toLowerCase();
      const swap = EXTENSION_SWAPS[ext];
      if (!swap) return null;
      return s.join(s.folder, `${s.name.slice(0, dot)}.${swap}`);
    },
    'no-extension': (path) => {
      const s = split(path);
      const dot = s.name.lastIndexOf('.');
      if (dot <= 0) return null;
      return s.join(s.folder, s.name.slice(0, dot));
    },
    'basename-only': (path) => {
      const s = split(path);
      return s.folder ? s.name : null;
    },
    'wrong-folder': (path) => {
      const s = split(path);
      if (!s.folder) return null;
      const other = pick(folders.filter((f) => f !== s.folder));
      return other ? s.join(other, s.name) : null;
    },
    'drop-folder': (path) => {
      const s = split(path);
      const segments = s.folder.split('/');
      if (segments.length < 2) return null;
      segments.splice(Math.floor(random() * segments.length), 1);
      return s.join(segments.join('/'), s.name);
    },
    style: (path) => {
      const s = split(path);
      const words = toWords(s.stem);
      if (words.length < 2) return null;
      const lower = words.map((w) => w.toLowerCase());
      const styles = [
        lower.join('_'),
        lower.join('-'),
        lower[0] +
          lower
            .slice(1)
            .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
            .join(''),
      ];
      const stem = pick(styles.filter((x) => x !== s.stem));
      return stem ? s.join(s.folder, stem + s.rest) : null;
    },
    'partial-path': (path) => {
      if (path.length < 8) return null;
      const s = split(path);
      const min = Math.max(s.folder.length + 2, Math.ceil(path.length * 0.6));
      const max = Math.floor(path.length * 0.9);
      if (min > max) return null;
      return path.slice(0, min + Math.floor(random() * (max - min + 1)));
    },
    'partial-name': (path) => {
      const s = split(path);
      if (s.name.length < 5) return null;
      const min = Math.max(3, Math.ceil(s.name.length * 0.6));
      const max = Math.floor(s.name.length * 0.9);
      if (min > max) return null;
      return s.name.slice(0, min + Math.floor(random() * (max - min + 1)));
    },
  };
}

/** What the fit rules compare, lower-cased: case never decides which path a query means. */
interface Parts {
  lower: string;
  folder: string;
  name: string;
  /** Before the first dot, and from it: typos and restyling change the stem only. */
  stem: string;
  rest: string;
  /** The name without its last extension, and whether it has one. */
  base: string;
  hasExtension: boolean;
  /** The stem's letters and digits only: the same in any case style ("tls1-3", "tls13"). */
  squashedStem: string;
}

function partsOf(path: string): Parts {
  const s = split(path);
  const dot = s.name.lastIndexOf('.');
  return {
    lower: path.toLowerCase(),
    folder: s.folder.toLowerCase(),
    name: s.name.toLowerCase(),
    stem: s.stem.toLowerCase(),
    rest: s.rest.toLowerCase(),
    base: (dot > 0 ? s.name.slice(0, dot) : s.name).toLowerCase(),
    hasExtension: dot > 0,
    squashedStem: squashed(s.stem),
  };
}

/** Whether taking one folder out of `folder` leaves `query`. */
function dropsOneFolder(folder: string, query: string): boolean {
  const segments = folder === '' ? [] : folder.split('/');
  if (segments.length !== (query === '' ? 0 : query.split('/').length) + 1) return false;
  return segments.some((_, i) => [...segments.slice(0, i), ...segments.slice(i + 1)].join('/') === query);
}

/** A typo of any of the four kinds: a caller cannot tell which letter was meant, so all four fit alike. */
const oneTypo = (q: Parts, p: Parts) => q.folder === p.folder && q.rest === p.rest && editDistance(q.stem, p.stem) <= 1;

/**
 * Whether a path fits a query as well as the path it was made from: whether the same kind
 * of mistake could have made the query from that path. The generator's arbitrary choices
 * are left out (which letter, which other extension, how much was typed, which other
 * folder), as a caller's mistakes are not limited to them; case is left out too.
 */
const FITS: Record<CaseKind, (q: Parts, p: Parts) => boolean> = {
  transpose: oneTypo,
  delete: oneTypo,
  insert: oneTypo,
  substitute: oneTypo,
  case: (q, p) => q.lower === p.lower,
  extension: (q, p) => q.folder === p.folder && p.hasExtension && q.base === p.base,
  'no-extension': (q, p) => q.folder === p.folder && p.hasExtension && q.name === p.base,
  'basename-only': (q, p) => q.name === p.name,
  'wrong-folder': (q, p) => q.name === p.name && q.folder !== p.folder,
  'drop-folder': (q, p) => q.name === p.name && dropsOneFolder(p.folder, q.folder),
  style: (q, p) => q.folder === p.folder && q.rest === p.rest && q.squashedStem === p.squashedStem,
  'partial-path': (q, p) => p.lower.startsWith(q.lower),
  'partial-name': (q, p) => p.name.startsWith(q.lower),
};

/**
 * The paths of a tree that fit a query equally under a kind of mistake (see FITS): the
 * right answers of a case. "index.js" as a basename fits every index.js; a partial path
 * fits every completion. Parts are computed once per tree, as the generator asks often.
 */
export function pathsFitting(paths: string[]): (kind: CaseKind, query: string) => string[] {
  const parts = paths.map(partsOf);
  return (kind, query) => {
    const q = partsOf(query);
    const fits = FITS[kind];
    return paths.filter((_, i) => fits(q, parts[i] as Parts));
  };
}

/** The paths in an order drawn from `random` (Fisher-Yates). */
function shuffled(paths: string[], random: () => number): string[] {
  const out = [...paths];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

export interface CaseSets {
  /** Cases with one right answer: no other path fits the query as well. What a hand-made test set holds. */
  oneAnswer: SuggestCase[];
  /** Cases whose query fits several paths equally: a right top-1 is any of them. */
  ambiguous: SuggestCase[];
}

/**
 * Up to `perKind` cases of each kind with one right answer and as many ambiguous ones,
 * from the paths in a seeded order. A query that is itself a path (in any case) is no
 * mistake and is dropped; a kind gets fewer cases only when the tree has no more paths
 * to make them from (a tree whose every name is in two folders has no one-answer
 * basename-only case).
 */
export function makeCaseSets(paths: string[], options: { perKind: number; seed: number }): CaseSets {
  const random = mulberry32(options.seed);
  const folders = [...new Set(paths.map((p) => split(p).folder).filter(Boolean))];
  const make = makers(random, folders);
  const fitting = pathsFitting(paths);
  const lowerCounts = new Map<string, number>();
  for (const p of paths) lowerCounts.set(p.toLowerCase(), (lowerCounts.get(p.toLowerCase()) ?? 0) + 1);
  const namesAPath = (query: string, expected: string) => {
    const lower = query.toLowerCase();
    return lower === expected.toLowerCase() ? (lowerCounts.get(lower) ?? 0) > 1 : lowerCounts.has(lower);
  };
  const sets: CaseSets = { oneAnswer: [], ambiguous: [] };
  for (const kind of Object.keys(make) as CaseKind[]) {
    const counts = { oneAnswer: 0, ambiguous: 0 };
    for (const expected of shuffled(paths, random)) {
      if (counts.oneAnswer >= options.perKind && counts.ambiguous >= options.perKind) break;
      const query = make[kind](expected);
      if (query === null || query === expected || namesAPath(query, expected)) continue;
      const answers = fitting(kind, query);
      if (!answers.includes(expected)) throw new Error(`${kind} case "${query}" does not fit ${expected}: the fit rule and the maker disagree`);
      const set = answers.length === 1 ? 'oneAnswer' : 'ambiguous';
      if (counts[set] >= options.perKind) continue;
      sets[set].push({ kind, query, expected, answers });
      counts[set] += 1;
    }
  }
  return sets;
}

/** Cases with one right answer each (see makeCaseSets). */
export function makeCases(paths: string[], options: { perKind: number; seed: number }): SuggestCase[] {
  return makeCaseSets(paths, options).oneAnswer;
}
