import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Misspelt, partial, misplaced and restyled versions of real paths, each with the path it
 * came from: the cases of the suggestion accuracy test and benchmark. Seeded, so a run
 * always makes the same cases.
 */

export type CaseKind =
  | 'transpose'
  | 'delete'
  | 'insert'
  | 'substitute'
  | 'case'
  | 'extension'
  | 'no-extension'
  | 'basename-only'
  | 'wrong-folder'
  | 'drop-folder'
  | 'style'
  | 'partial-path'
  | 'partial-name';

export interface SuggestCase {
  kind: CaseKind;
  query: string;
  expected: string;
}

export function loadPaths(name: string): string[] {
  return readFileSync(join(__dirname, '..', 'fixtures', `paths-${name}.txt`), 'utf8').split('\n').filter(Boolean);
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

const EXTENSION_SWAPS: Record<string, string> = { ts: 'js', js: 'ts', tsx: 'jsx', jsx: 'tsx', md: 'txt', json: 'yaml', yml: 'yaml', yaml: 'yml', mjs: 'js', cjs: 'js', map: 'json', py: 'pyi', go: 'rs', rs: 'go', txt: 'md', sh: 'bash', html: 'htm', css: 'scss' };
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
  return stem.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+|\s+/).filter(Boolean);
}

export function makeCases(paths: string[], options: { perKind: number; seed: number }): SuggestCase[] {
  const random = mulberry32(options.seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const folders = [...new Set(paths.map((p) => split(p).folder).filter(Boolean))];
  const lowerCounts = new Map<string, number>();
  for (const p of paths) lowerCounts.set(p.toLowerCase(), (lowerCounts.get(p.toLowerCase()) ?? 0) + 1);
  /** A query that is itself another path (or a path in other case) is not a mistake. */
  const namesAnotherPath = (query: string, expected: string) => {
    const lower = query.toLowerCase();
    return lower === expected.toLowerCase() ? (lowerCounts.get(lower) ?? 0) > 1 : lowerCounts.has(lower);
  };
  const makers: Record<CaseKind, (path: string) => string | null> = {
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
      const options = [path.toLowerCase(), s.join(s.folder, s.name.toUpperCase()), s.join(s.folder, s.name.charAt(0).toUpperCase() === s.name.charAt(0) ? s.name.charAt(0).toLowerCase() + s.name.slice(1) : s.name.charAt(0).toUpperCase() + s.name.slice(1))];
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
      const styles = [lower.join('_'), lower.join('-'), lower[0] + lower.slice(1).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')];
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
  const cases: SuggestCase[] = [];
  for (const kind of Object.keys(makers) as CaseKind[]) {
    let made = 0;
    for (let attempt = 0; made < options.perKind && attempt < options.perKind * 20; attempt += 1) {
      const expected = pick(paths);
      const query = makers[kind](expected);
      if (query === null || query === expected || namesAnotherPath(query, expected)) continue;
      cases.push({ kind, query, expected });
      made += 1;
    }
  }
  return cases;
}

/**
 * Whether a case has one answer: no other path fits the query as well under the kind of
 * mistake (another file of the same name for a name-only query, another completion of a
 * partial one). Ambiguous cases are a coin toss for any ranking.
 */
export function isResolvable(c: SuggestCase, paths: string[]): boolean {
  const nameOfPath = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const folderOfPath = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const stemOf = (p: string) => {
    const n = nameOfPath(p).toLowerCase();
    const dot = n.indexOf('.', 1);
    return dot > 0 ? n.slice(0, dot) : n;
  };
  const lowerQuery = c.query.toLowerCase();
  const fits = (p: string): boolean => {
    switch (c.kind) {
      case 'partial-path':
        return p.toLowerCase().startsWith(lowerQuery);
      case 'partial-name':
        return nameOfPath(p).toLowerCase().startsWith(lowerQuery);
      case 'basename-only':
      case 'wrong-folder':
        return nameOfPath(p) === nameOfPath(c.query);
      case 'drop-folder':
        return nameOfPath(p) === nameOfPath(c.query) && folderOfPath(c.query).split('/').every((segment) => folderOfPath(p).split('/').includes(segment));
      case 'extension':
      case 'no-extension':
        return folderOfPath(p) === folderOfPath(c.query) && stemOf(p) === stemOf(c.query);
      default:
        return p === c.expected;
    }
  };
  return paths.filter((p) => p !== c.expected && fits(p)).length === 0;
}
