import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { filesOf, qualitySets } from '../symbols-quality/corpora';

export interface CorpusFile {
  path: string;
  language: string;
  content: string;
}

const repo = join(__dirname, '..', '..');
const LANGUAGE: Record<string, string> = { '.ts': 'TypeScript', '.tsx': 'TypeScript', '.mts': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript' };

/** gitdex's own TypeScript and JavaScript (libs, services, bench, test, scripts; no builds). */
export function gitdexSources(): CorpusFile[] {
  const out: CorpusFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('dist') || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const language = LANGUAGE[extname(entry.name)];
      if (entry.isDirectory()) walk(path);
      else if (language) out.push({ path: relative(repo, path), language, content: readFileSync(path, 'utf8') });
    }
  };
  for (const dir of ['libs', 'services', 'bench', 'test', 'scripts']) walk(join(repo, dir));
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** gitdex's sources and the files evaluate.ts reads of every quality set (400 a set). */
export function corpusFiles(): CorpusFile[] {
  const files = gitdexSources();
  for (const set of qualitySets(mkdtempSync(join(tmpdir(), 'symbols-corpus-')))) {
    for (const file of filesOf(set, 400)) files.push({ path: `${set.name}/${file}`, language: set.language, content: readFileSync(join(set.root, file), 'utf8') });
  }
  return files;
}
