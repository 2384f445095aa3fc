/**
 * The held-out suggestion cases: how a mistaken query is made from a real path, and which
 * paths it fits equally (its right answers). Written apart from the ranker on purpose:
 * nothing here comes from services/reader/src/suggest (nor from the tuning generator,
 * services/reader/test/support/suggest-cases.ts, which uses the ranker's edit distance), so
 * the ranking cannot decide what a case's right answer is. Seeded: the same input makes
 * the same cases. The cases are generated once and frozen as data (freeze.ts).
 */

export const KINDS = ['typo', 'folder-typo', 'case', 'other-extension', 'no-extension', 'stem-only', 'name-only', 'other-folder', 'missing-folder', 'restyled', 'path-prefix', 'name-prefix'] as const;
export type Kind = (typeof KINDS)[number];

export interface HeldOutCase {
  kind: Kind;
  query: string;
  /** The path the query was made from. */
  from: string;
  /** Every path the query fits as well as `from` under its kind (see FIT_RULES), `from` included. */
  answers: string[];
}

/** A small seeded generator (xorshift32): the same seed, the same cases. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** Optimal string alignment distance, capped: is `a` at most one typo (swap, drop, extra or wrong letter) from `b`? */
export function withinOneTypo(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const restA = a.slice(i + 1);
  const restB = b.slice(i + 1);
  if (a.length === b.length) return restA === restB || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** A path taken apart, lower-cased: letter case never decides which path a query means. */
export interface Shape {
  lower: string;
  folder: string;
  name: string;
  /** The name up to its first dot (a leading dot belongs to the name), and from that dot on. */
  stem: string;
  tail: string;
  /** The name up to its last dot, and whether there is an extension. */
  base: string;
  hasExtension: boolean;
  /** The stem's letters and digits alone: one stem in any case style (snake, kebab, camel). */
  letters: string;
}

export function shapeOf(path: string): Shape {
  const lower = path.toLowerCase();
  const slash = lower.lastIndexOf('/');
  const folder = slash < 0 ? '' : lower.slice(0, slash);
  const name = lower.slice(slash + 1);
  const first = name.indexOf('.', 1);
  const last = name.lastIndexOf('.');
  const stem = first > 0 ? name.slice(0, first) : name;
  return {
    lower,
    folder,
    name,
    stem,
    tail: first > 0 ? name.slice(first) : '',
    base: last > 0 ? name.slice(0, last) : name,
    hasExtension: last > 0,
    letters: stem.replace(/[^a-z0-9]/g, ''),
  };
}

function withoutOneSegment(folder: string): string[] {
  const segments = folder === '' ? [] : folder.split('/');
  return segments.map((_, i) => [...segments.slice(0, i), ...segments.slice(i + 1)].join('/'));
}

/**
 * When a path fits a query as well as the path the query was made from: when the same kind
 * of mistake could have made the query from it, whatever letter, extension, folder or
 * length the mistake took. Compared in lower case.
 */
export const FIT_RULES: Record<Kind, { rule: string; fits: (q: Shape, p: Shape) => boolean }> = {
  typo: {
    rule: 'same folder, same part from the first dot on, stem at most one swapped, dropped, extra or wrong letter away',
    fits: (q, p) => q.folder === p.folder && q.tail === p.tail && withinOneTypo(q.stem, p.stem),
  },
  'folder-typo': { rule: 'same name, folder at most one swapped, dropped, extra or wrong letter away', fits: (q, p) => q.name === p.name && withinOneTypo(q.folder, p.folder) },
  case: { rule: 'equal in lower case', fits: (q, p) => q.lower === p.lower },
  'other-extension': { rule: 'same folder, same name up to the last dot, with an extension', fits: (q, p) => q.folder === p.folder && p.hasExtension && q.base === p.base },
  'no-extension': { rule: 'same folder, the query is the name up to its last dot', fits: (q, p) => q.folder === p.folder && p.hasExtension && q.name === p.base },
  'stem-only': { rule: 'the query (no folder) is the name up to its last dot', fits: (q, p) => q.folder === '' && p.hasExtension && q.name === p.base },
  'name-only': { rule: 'the same name, any folder', fits: (q, p) => q.name === p.name },
  'other-folder': { rule: 'the same name in another folder than the query gives', fits: (q, p) => q.name === p.name && q.folder !== p.folder },
  'missing-folder': { rule: "the same name, in a folder that is the query's with one segment more", fits: (q, p) => q.name === p.name && withoutOneSegment(p.folder).includes(q.folder) },
  restyled: { rule: 'same folder, same part from the first dot on, same letters and digits in the stem', fits: (q, p) => q.folder === p.folder && q.tail === p.tail && q.letters === p.letters },
  'path-prefix': { rule: 'the path starts with the query', fits: (q, p) => p.lower.startsWith(q.lower) },
  'name-prefix': { rule: 'the name starts with the query (no folder)', fits: (q, p) => p.name.startsWith(q.lower) },
};

const OTHER_EXTENSIONS: Record<string, string[]> = {
  py: ['pyi', 'pyc', 'txt'],
  go: ['rs', 'c', 'golang'],
  java: ['kt', 'class', 'jav'],
  js: ['ts', 'mjs', 'jsx'],
  ts: ['js', 'tsx', 'mts'],
  mjs: ['js', 'cjs'],
  cjs: ['js', 'mjs'],
  json: ['yaml', 'json5', 'js'],
  md: ['txt', 'rst', 'markdown'],
  c: ['h', 'cc', 'cpp'],
  h: ['c', 'hpp'],
  s: ['asm', 'S'],
  txt: ['md', 'text'],
  html: ['htm', 'xhtml'],
};
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

function parts(path: string) {
  const slash = path.lastIndexOf('/');
  const folder = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  const first = name.indexOf('.', 1);
  const last = name.lastIndexOf('.');
  return {
    folder,
    name,
    stem: first > 0 ? name.slice(0, first) : name,
    tail: first > 0 ? name.slice(first) : '',
    base: last > 0 ? name.slice(0, last) : name,
    ext: last > 0 ? name.slice(last + 1) : '',
    at: (f: string, n: string) => (f === '' ? n : `${f}/${n}`),
  };
}

/** Positions of letters in a text: where a typo looks like a typo. */
function letterAt(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 1) if (/[a-z]/i.test(text[i]!)) out.push(i);
  return out;
}

/** One typo in `text` (≥ 4 characters): adjacent letters swapped, a letter dropped, one added or one replaced. */
function typoOf(text: string, pick: <T>(items: readonly T[]) => T | undefined, _random: () => number): string | null {
  if (text.length < 4) return null;
  const letters = letterAt(text);
  if (letters.length === 0) return null;
  const op = pick(['swap', 'drop', 'extra', 'wrong'] as const)!;
  if (op === 'swap') {
    const at = letters.filter((i) => i + 1 < text.length && /[a-z]/i.test(text[i + 1]!) && text[i]!.toLowerCase() !== text[i + 1]!.toLowerCase());
    const i = pick(at);
    return i === undefined ? null : text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
  }
  const i = pick(letters)!;
  if (op === 'drop') return text.length < 5 ? null : text.slice(0, i) + text.slice(i + 1);
  if (op === 'extra') return text.slice(0, i) + pick([...ALPHABET]) + text.slice(i);
  const other = pick([...ALPHABET].filter((l) => l !== text[i]!.toLowerCase()));
  return text.slice(0, i) + other + text.slice(i + 1);
}

function wordsOf(stem: string): string[] {
  return stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** How each kind of mistake turns a path into a query; null when this path offers nothing to make it from. */
export function makers(random: () => number, folders: readonly string[]): Record<Kind, (path: string) => string | null> {
  const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(random() * items.length)]);
  return {
    typo: (path) => {
      const p = parts(path);
      const stem = typoOf(p.stem, pick, random);
      return stem === null ? null : p.at(p.folder, stem + p.tail);
    },
    'folder-typo': (path) => {
      const p = parts(path);
      const segments = p.folder === '' ? [] : p.folder.split('/');
      const i = pick(segments.map((_, k) => k).filter((k) => segments[k]!.length >= 4));
      if (i === undefined) return null;
      const typo = typoOf(segments[i]!, pick, random);
      if (typo === null) return null;
      segments[i] = typo;
      return p.at(segments.join('/'), p.name);
    },
    case: (path) => {
      const p = parts(path);
      const flipped = p.name[0] === p.name[0]!.toUpperCase() ? p.name[0].toLowerCase() + p.name.slice(1) : p.name[0]!.toUpperCase() + p.name.slice(1);
      const options = [path.toLowerCase(), path.toUpperCase(), p.at(p.folder, flipped)].filter((o) => o !== path);
      return pick(options) ?? null;
    },
    'other-extension': (path) => {
      const p = parts(path);
      const other = pick(OTHER_EXTENSIONS[p.ext.toLowerCase()] ?? []);
      return other === undefined ? null : p.at(p.folder, `${p.base}.${other}`);
    },
    'no-extension': (path) => {
      const p = parts(path);
      return p.ext === '' ? null : p.at(p.folder, p.base);
    },
    'stem-only': (path) => {
      const p = parts(path);
      return p.ext === '' || p.base.length < 3 ? null : p.base;
    },
    'name-only': (path) => {
      const p = parts(path);
      return p.folder === '' ? null : p.name;
    },
    'other-folder': (path) => {
      const p = parts(path);
      const other = pick(folders.filter((f) => f !== p.folder));
      return p.folder === '' || other === undefined ? null : p.at(other, p.name);
    },
    'missing-folder': (path) => {
      const p = parts(path);
      const segments = p.folder === '' ? [] : p.folder.split('/');
      if (segments.length < 2) return null;
      segments.splice(Math.floor(random() * segments.length), 1);
      return p.at(segments.join('/'), p.name);
    },
    restyled: (path) => {
      const p = parts(path);
      const words = wordsOf(p.stem);
      if (words.length < 2) return null;
      const styles = [
        words.join('_'),
        words.join('-'),
        words[0] +
          words
            .slice(1)
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join(''),
        words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(''),
      ];
      const stem = pick(styles.filter((s) => s !== p.stem));
      return stem === undefined ? null : p.at(p.folder, stem + p.tail);
    },
    'path-prefix': (path) => {
      const p = parts(path);
      const min = Math.max(p.folder.length + 3, Math.ceil(path.length * 0.6));
      const max = Math.floor(path.length * 0.9);
      return path.length < 10 || min > max ? null : path.slice(0, min + Math.floor(random() * (max - min + 1)));
    },
    'name-prefix': (path) => {
      const p = parts(path);
      const min = Math.max(4, Math.ceil(p.name.length * 0.6));
      const max = Math.floor(p.name.length * 0.9);
      return min > max ? null : p.name.slice(0, min + Math.floor(random() * (max - min + 1)));
    },
  };
}

/** The right answers of a query under a kind: every path of the tree it fits (FIT_RULES). Indexed once per tree. */
export function answersIn(paths: readonly string[]): (kind: Kind, query: string) => string[] {
  const shapes = paths.map(shapeOf);
  return (kind, query) => {
    const q = shapeOf(query);
    const { fits } = FIT_RULES[kind];
    const out: string[] = [];
    for (let i = 0; i < paths.length; i += 1) if (fits(q, shapes[i]!)) out.push(paths[i]!);
    return out;
  };
}

/**
 * Up to `perKind` cases of each kind with one right answer and as many with several, from
 * the paths in a seeded order. A query that is itself a path (any case) is no mistake and
 * is skipped, as is one its own path does not fit (a maker and its rule disagreeing is a bug).
 */
export function makeHeldOutCases(paths: readonly string[], options: { perKind: number; seed: number }): HeldOutCase[] {
  const random = seeded(options.seed);
  const folders = [...new Set(paths.map((p) => parts(p).folder).filter((f) => f !== ''))].sort();
  const make = makers(random, folders);
  const answers = answersIn(paths);
  const lowerPaths = new Set(paths.map((p) => p.toLowerCase()));
  const exactPaths = new Set(paths);
  const out: HeldOutCase[] = [];
  for (const kind of KINDS) {
    const order = [...paths];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let one = 0;
    let several = 0;
    for (const from of order) {
      if (one >= options.perKind && several >= options.perKind) break;
      const query = make[kind](from);
      if (query === null || query === '' || exactPaths.has(query)) continue;
      if (kind !== 'case' && lowerPaths.has(query.toLowerCase())) continue;
      const fit = answers(kind, query);
      if (!fit.includes(from)) throw new Error(`held-out ${kind}: "${query}" does not fit ${from}: the maker and the rule disagree`);
      if (fit.length === 1 ? one >= options.perKind : several >= options.perKind) continue;
      if (fit.length === 1) one += 1;
      else several += 1;
      out.push({ kind, query, from, answers: fit });
    }
  }
  return out;
}
