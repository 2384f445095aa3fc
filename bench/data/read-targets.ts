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
