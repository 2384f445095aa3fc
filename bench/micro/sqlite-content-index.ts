/**
 * What the content index of search_code costs the embedded (SQLite) index's writes: the
 * index as it is (schema 3: one word per distinct folded trigram, FTS5 `ascii`) beside the
 * index as it was (schema 2: FTS5's `trigram` tokenizer over the whole text), in the same
 * run, on the same real files (.js/.ts/.json from node_modules, as the indexer builds them).
 *
 * Three measurements, each alternating old and new, medians of the runs:
 * 1. full indexing: `SqliteIndexStore.writeFiles` in calls of 500 documents into a fresh
 *    file; the old store is the index-store sources of BASELINE_COMMIT, taken with git
 *    into bench/results/ (so it needs this repository's history);
 * 2. the content index's writes alone: a fresh database with only the FTS5 table,
 *    transactions of 500 (the new side computes the words inside the timing);
 * 3. term extraction in TypeScript: the Elasticsearch adapter's distinct trigrams
 *    (contentTerms) at BASELINE_COMMIT and now, and the words of the new index.
 * Plus the bytes of each content index (dbstat) per byte of content.
 *
 * A micro-benchmark in one process (no engines, no MCP); `npm run bench` measures indexing
 * end to end. Needs `npx tsc -b` first. Run:
 *   npx tsx --tsconfig bench/tsconfig.json bench/micro/sqlite-content-index.ts [files] [runs]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type FileDocument } from '@gitdex/contracts';
import { contentTermWords, contentTerms } from '@gitdex/terms';
import type { FileWrite, IndexStore } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import { walk } from '../data/files';
import { MAX_FILE_BYTES, REPO_ROOT } from '../data/corpora';
import { median } from '../measure/stats';

const fileCount = Number(process.argv[2] ?? 8000);
const runs = Number(process.argv[3] ?? 3);
/** The last commit whose SQLite content index used FTS5's trigram tokenizer (schema 2). */
const BASELINE_COMMIT = '1fbe379df9d9cc89e0763b2764ab89e820ba4efe';
const BATCH = 500;

const OLD_TABLE = `CREATE VIRTUAL TABLE file_text USING fts5(content, content='', contentless_delete=1, detail=none, tokenize='trigram case_sensitive 0')`;
const NEW_TABLE = `CREATE VIRTUAL TABLE file_text USING fts5(words, content='', contentless_delete=1, detail=none, tokenize='ascii')`;

type StoreClass = new (options: { file: string }) => IndexStore;
type Extract = (text: string) => unknown;

/** The baseline's index-store and content-terms sources, written beside each other under bench/results/. */
function baselineSources(): { Store: StoreClass; contentTrigrams: (text: string) => string[] } {
  const dir = join(REPO_ROOT, 'bench', 'results', `baseline-${BASELINE_COMMIT.slice(0, 10)}`);
  const git = (...args: string[]) => execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  mkdirSync(join(dir, 'index-store'), { recursive: true });
  for (const name of git('ls-tree', '--name-only', `${BASELINE_COMMIT}:libs/sqlite/src/index-store`).split('\n').filter(Boolean)) {
    writeFileSync(join(dir, 'index-store', name), git('show', `${BASELINE_COMMIT}:libs/sqlite/src/index-store/${name}`));
  }
  writeFileSync(join(dir, 'content-terms.ts'), git('show', `${BASELINE_COMMIT}:libs/contracts/src/content-terms.ts`));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the baseline's sources are written at run time and loaded synchronously through tsx
  const store = require(join(dir, 'index-store', 'store.ts')) as { SqliteIndexStore: StoreClass };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  const terms = require(join(dir, 'content-terms.ts')) as { contentTrigrams: (text: string) => string[] };
  return { Store: store.SqliteIndexStore, contentTrigrams: terms.contentTrigrams };
}

/** The first `count` .js/.ts/.json files of node_modules (in a stable order), as the indexer's documents. */
function documents(count: number): FileDocument[] {
  const files = walk(join(REPO_ROOT, 'node_modules'), { maxBytes: MAX_FILE_BYTES, skipDirs: ['.git', '.cache'] })
    .files.filter((f) => /\.(js|ts|json)$/.test(f.path))
    .slice(0, count);
  const context = { repositoryId: 1, ref: 'refs/heads/main', commitSha: 'c'.repeat(40), generation: 1, maxFileBytes: MAX_FILE_BYTES };
  return files.map((f) => {
    const content = readFileSync(f.abs);
    return buildDocument({ path: f.path, mode: '100644', blobSha: gitBlobSha(content), size: content.length, content }, context);
  });
}

function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

/** Bytes of the tables whose name starts with `prefix` (the FTS5 table's shadow tables). */
function tableBytes(file: string, prefix: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[string], { bytes: number }>(`SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE ? || '%'`).get(prefix)?.bytes ?? 0;
  } finally {
    db.close();
  }
}

async function fullIndexing(Store: StoreClass, writes: FileWrite[][], file: string): Promise<number> {
  const store = new Store({ file });
  await store.ensureReady();
  const started = performance.now();
  for (const batch of writes) await store.writeFiles(batch);
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

function ftsWrites(table: string, texts: string[][], toValue: (text: string) => string, file: string): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(table);
  const insert = db.prepare<[number, string]>(`INSERT INTO file_text (rowid, ${table.includes('words') ? 'words' : 'content'}) VALUES (?, ?)`);
  let rowid = 0;
  const started = performance.now();
  for (const batch of texts) {
    db.transaction(() => {
      for (const text of batch) insert.run((rowid += 1), toValue(text));
    })();
  }
  const ms = performance.now() - started;
  db.close();
  return ms;
}

function extraction(extract: Extract, texts: string[]): number {
  const started = performance.now();
  for (const text of texts) extract(text);
  return performance.now() - started;
}

interface Pair {
  label: string;
  old: number[];
  now: number[];
}

function report(pair: Pair, count: number, bytes: number): void {
  const old = median(pair.old);
  const now = median(pair.now);
  const rate = (ms: number) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} files/s (${(bytes / 2 ** 20 / (ms / 1000)).toFixed(1)} MB/s)`;
  console.log(`${pair.label}: before ${old.toFixed(0)} ms, ${rate(old)}; now ${now.toFixed(0)} ms, ${rate(now)}; ${(old / now).toFixed(2)}x`);
  console.log(`  runs before ${pair.old.map((v) => v.toFixed(0)).join(', ')} ms; now ${pair.now.map((v) => v.toFixed(0)).join(', ')} ms`);
}

async function main() {
  const baseline = baselineSources();
  const docs = documents(fileCount);
  const texts = docs.flatMap((d) => (d.content === null ? [] : [d.content]));
  const bytes = docs.reduce((sum, d) => sum + d.size, 0);
  const writes = batches(docs.map((document): FileWrite => ({ type: 'put', document })));
  const textBatches = batches(texts);
  console.log(`${docs.length} files (${texts.length} with content), ${(bytes / 2 ** 20).toFixed(1)} MB; ${runs} runs, old and new alternated`);
  const work = mkdtempSync(join(tmpdir(), 'gitdex-content-index-'));
  const full: Pair = { label: 'full indexing (SqliteIndexStore.writeFiles)', old: [], now: [] };
  const fts: Pair = { label: 'content index writes alone (FTS5)', old: [], now: [] };
  const terms: Pair = { label: 'Elasticsearch terms (contentTrigrams)', old: [], now: [] };
  const words: number[] = [];
  const sizes = { old: 0, now: 0, oldFile: 0, nowFile: 0 };
  try {
    for (let run = 0; run < runs; run += 1) {
      const order = run % 2 === 0 ? (['old', 'now'] as const) : (['now', 'old'] as const);
      for (const side of order) {
        const file = join(work, `${side}-${run}.sqlite`);
        full[side].push(await fullIndexing(side === 'old' ? baseline.Store : SqliteIndexStore, writes, file));
        if (run === 0) {
          sizes[side] = tableBytes(file, 'file_text');
          sizes[side === 'old' ? 'oldFile' : 'nowFile'] = tableBytes(file, '');
        }
        rmSync(file, { force: true });
      }
      for (const side of order) {
        const file = join(work, `fts-${side}-${run}.sqlite`);
        fts[side].push(side === 'old' ? ftsWrites(OLD_TABLE, textBatches, (t) => t, file) : ftsWrites(NEW_TABLE, textBatches, contentTermWords, file));
        rmSync(file, { force: true });
      }
      for (const side of order) terms[side].push(extraction(side === 'old' ? baseline.contentTrigrams : contentTerms, texts));
      words.push(extraction(contentTermWords, texts));
      console.log(`run ${run + 1}/${runs} done`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  report(full, docs.length, bytes);
  report(fts, texts.length, bytes);
  report(terms, texts.length, bytes);
  console.log(`SQLite trigram words (contentTermWords): ${median(words).toFixed(0)} ms (runs ${words.map((v) => v.toFixed(0)).join(', ')})`);
  const perByte = (n: number) => (n / bytes).toFixed(3);
  console.log(`content index bytes per content byte (dbstat): before ${perByte(sizes.old)}, now ${perByte(sizes.now)}; whole file before ${perByte(sizes.oldFile)}, now ${perByte(sizes.nowFile)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
