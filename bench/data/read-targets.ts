import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyPath } from '@gitdex/indexer';
import type { Corpus } from './corpora';

/** What the read benchmarks read: files whose content gitdex stores, and a folder to list. */
export interface ReadTargets {
  /** Small text files that one read_file call returns whole (≤ 400 lines, ≤ 15,000 characters). */
  smallFiles: string[];
  /** A large text file whose first 400 lines fit one read_file call (≤ 15,000 characters). */
  largeFile: { path: string; lines: number; bytes: number };
  /** The folder with the most entries (≤ 200) directly in it. */
  folder: { path: string; entries: number };
}

const RANGE = 400;
const MAX_CHARS = 15_000;

function textOf(abs: string): string | null {
  const buffer = readFileSync(abs);
  if (buffer.includes(0)) return null;
  return buffer.toString('utf8');
}

const stored = (path: string) => {
  const { vendored, generated } = classifyPath(path);
  return !vendored && !generated;
};

/** Picks the targets among the corpus's files, reading them from a checkout of the repository. */
export function readTargets(corpus: Corpus, checkout: string, smallCount = 20): ReadTargets {
  const candidates = corpus.files.filter((f) => stored(f.path) && f.size > 0);
  const small: string[] = [];
  for (const f of candidates.filter((c) => c.size >= 1_000 && c.size <= 8_000)) {
    const text = textOf(join(checkout, f.path));
    if (text !== null && text.length <= MAX_CHARS && text.split('\n').length <= RANGE) small.push(f.path);
  }
  // Spread the picks over the repository rather than taking one folder's files.
  const step = Math.max(1, Math.floor(small.length / smallCount));
  const smallFiles = small.filter((_, i) => i % step === 0).slice(0, smallCount);

  let largeFile: ReadTargets['largeFile'] | null = null;
  for (const f of [...candidates].sort((a, b) => b.size - a.size)) {
    const text = textOf(join(checkout, f.path));
    if (text === null) continue;
    const lines = text.split('\n');
    if (lines.length < RANGE * 3) continue;
    if (lines.slice(0, RANGE).join('\n').length > MAX_CHARS) continue;
    largeFile = { path: f.path, lines: lines.length, bytes: f.size };
    break;
  }
  if (smallFiles.length === 0 || !largeFile) throw new Error(`${corpus.name}: no suitable files to read (small ${smallFiles.length}, large ${largeFile ? 1 : 0})`);

  const entries = new Map<string, Set<string>>();
  for (const f of corpus.files) {
    const parts = f.path.split('/');
    for (let depth = 0; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      const set = entries.get(folder) ?? new Set<string>();
      set.add(parts[depth]!);
      entries.set(folder, set);
    }
  }
  const folders = [...entries.entries()].filter(([path, set]) => path !== '' && set.size <= 200).sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1));
  const [folderPath, folderEntries] = folders[0] ?? ['', entries.get('') ?? new Set<string>()];
  return { smallFiles, largeFile, folder: { path: folderPath, entries: folderEntries.size } };
}

/** What the cold benchmarks touch once each: distinct files and folders, none of them the warm targets. */
export interface ColdTargets {
  /** Text files that read_file returns whole (≤ 400 lines, ≤ 15,000 characters), spread over the repository. */
  files: string[];
  /** Folders with at most 300 entries (one list_files page), each listed once. */
  folders: string[];
  /** A file and a folder for the one unmeasured call after the fresh start (outside both sets). */
  warmupFile: string;
  warmupFolder: string;
}

/** Up to `count` distinct files and folders for first-touch reads, chosen apart from `warm` (ReadTargets). */
export function coldTargets(corpus: Corpus, checkout: string, warm: ReadTargets, count: number): ColdTargets {
  const taken = new Set([...warm.smallFiles, warm.largeFile.path]);
  const whole: string[] = [];
  for (const f of corpus.files) {
    if (taken.has(f.path) || !stored(f.path) || f.size === 0 || f.size > MAX_CHARS) continue;
    const text = textOf(join(checkout, f.path));
    if (text !== null && text.length <= MAX_CHARS && text.split('\n').length <= RANGE) whole.push(f.path);
  }
  const entries = new Map<string, Set<string>>();
  for (const f of corpus.files) {
    const parts = f.path.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      const set = entries.get(folder) ?? new Set<string>();
      set.add(parts[depth]!);
      entries.set(folder, set);
    }
  }
  const folders = [...entries.entries()]
    .filter(([path, set]) => path !== warm.folder.path && set.size <= 300)
    .map(([path]) => path)
    .sort();
  const spread = <T>(items: T[], n: number): T[] => {
    const step = items.length / Math.max(1, Math.min(n, items.length));
    return Array.from({ length: Math.min(n, items.length) }, (_, i) => items[Math.floor(i * step)]!);
  };
  const [warmupFile, ...files] = spread(whole, count + 1);
  const [warmupFolder, ...rest] = spread(folders, count + 1);
  if (!warmupFile || !warmupFolder || files.length === 0 || rest.length === 0) throw new Error(`${corpus.name}: no files or folders to read cold`);
  return { files, folders: rest, warmupFile, warmupFolder };
}
