/**
 * What storing each blob once (SQLite layout 6) changes, against layout 5 (content on every
 * file row), in the same run on the same real files (node_modules' .js/.ts/.json as the
 * indexer builds them). The layout 5 store is the index-store sources of BASELINE_COMMIT,
 * taken with git into bench/results/ (so it needs this repository's history).
 *
 * 1. bytes: one repository with `refs` refs sharing all files but 1 % (each ref changes its
 *    own 1 %), written by each layout, page_count * page_size after a VACUUM;
 * 2. cold and warm reads and searches on the first ref of that data: a new connection per
 *    round, its first getFile and search timed (cold), then medians of the next ones;
 * 3. the migration of a layout 5 file of `large` distinct blobs (the files again with a
 *    comment per copy): the open, the batches (median and slowest: what a read can wait),
 *    the whole move, and a read answered between batches.
 *
 * A micro-benchmark in one process (no engines). Needs `npx tsc -b` first. Run:
 *   npx tsx --tsconfig bench/tsconfig.json bench/micro/sqlite-blob-storage.ts [files] [refs] [large] [rounds]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FileDocument } from '@gitdex/contracts';
import type { ContentPlan, FileWrite, IndexStore, Snapshot } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { buildDocument, gitBlobSha } from '@gitdex/indexer';
import { walk } from '../data/files';
import { MAX_FILE_BYTES, REPO_ROOT } from '../data/corpora';
import { median } from '../measure/stats';

const fileCount = Number(process.argv[2] ?? 4000);
const refCount = Number(process.argv[3] ?? 10);
const largeCount = Number(process.argv[4] ?? 54_000);
const rounds = Number(process.argv[5] ?? 5);
/** The last commit of SQLite layout 5 (content on each file row). */
const BASELINE_COMMIT = '6a2a66a';
const BATCH = 500;
/** Rows per migration transaction: the store's default. */
const MIGRATION_BATCH = 100;

type StoreClass = new (options: { file: string }) => IndexStore;

function baselineStore(): StoreClass {
  const dir = join(REPO_ROOT, 'bench', 'results', `baseline-${BASELINE_COMMIT}`);
  const git = (...args: string[]) => execFileSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  mkdirSync(join(dir, 'index-store'), { recursive: true });
  for (const name of git('ls-tree', '--name-only', `${BASELINE_COMMIT}:libs/sqlite/src/index-store`).split('\n').filter(Boolean)) {
    writeFileSync(join(dir, 'index-store', name), git('show', `${BASELINE_COMMIT}:libs/sqlite/src/index-store/${name}`));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the baseline's sources are written at run time and loaded synchronously through tsx
  return (require(join(dir, 'index-store', 'store.ts')) as { SqliteIndexStore: StoreClass }).SqliteIndexStore;
}

interface Source {
  path: string;
  content: Buffer;
}

function sources(count: number): Source[] {
  return walk(join(REPO_ROOT, 'node_modules'), { maxBytes: MAX_FILE_BYTES, skipDirs: ['.git', '.cache'] })
    .files.filter((f) => /\.(js|ts|json)$/.test(f.path))
    .slice(0, count)
    .map((f) => ({ path: f.path, content: readFileSync(f.abs) }));
}

function document(source: Source, ref: string, generation = 1): FileDocument {
  const context = { repositoryId: 1, ref, commitSha: 'c'.repeat(40), generation, maxFileBytes: MAX_FILE_BYTES };
  return buildDocument({ path: source.path, mode: '100644', blobSha: gitBlobSha(source.content), size: source.content.length, content: source.content }, context);
}

/** `refs` refs of the same files, each changing its own 1 % (a comment appended). */
function sharedRefs(files: Source[], refs: number): FileDocument[] {
  const docs: FileDocument[] = [];
  const changed = Math.max(1, Math.round(files.length / 100));
  for (let r = 0; r < refs; r += 1) {
    const ref = r === 0 ? 'refs/heads/main' : `refs/heads/branch-${r}`;
    files.forEach((file, i) => {
      const own = r > 0 && i >= r * changed && i < (r + 1) * changed;
      docs.push(document(own ? { path: file.path, content: Buffer.concat([file.content, Buffer.from(`\n// ${ref}\n`)]) } : file, ref));
    });
  }
  return docs;
}

function batches(docs: FileDocument[]): FileWrite[][] {
  const out: FileWrite[][] = [];
  for (let i = 0; i < docs.length; i += BATCH) out.push(docs.slice(i, i + BATCH).map((document) => ({ type: 'put', document })));
  return out;
}

async function write(Store: StoreClass, file: string, docs: FileDocument[]): Promise<number> {
  const store = new Store({ file });
  const started = performance.now();
  for (const batch of batches(docs)) await store.writeFiles(batch);
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

function fileBytes(file: string): number {
  const db = new Database(file);
  try {
    db.exec('VACUUM');
    return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  } finally {
    db.close();
  }
}

const PLANS: ContentPlan[] = [
  { op: 'substring', text: 'function' },
  { op: 'substring', text: 'createhash' },
  { op: 'substring', text: 'use strict' },
  {
    op: 'and',
    of: [
      { op: 'substring', text: 'export' },
      { op: 'substring', text: 'promise' },
    ],
  },
];
const SCOPE = { includeGenerated: true, afterPath: null, limit: 200 };

interface ReadTimes {
  coldRead: number[];
  coldSearch: number[];
  read: number[];
  search: number[];
}

async function time<T>(into: number[], body: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const out = await body();
  into.push(performance.now() - started);
  return out;
}

/** One round: a new connection, its first read and search (cold), then every path and plan once. */
async function readRound(Store: StoreClass, file: string, paths: string[], times: ReadTimes): Promise<number> {
  const store = new Store({ file });
  const snapshot: Snapshot = { repositoryId: 1, ref: 'refs/heads/main', generation: 1 };
  await store.ensureReady();
  let found = 0;
  await time(times.coldRead, () => store.getFile(snapshot, paths[0] as string));
  found += (await time(times.coldSearch, () => store.searchCandidates(snapshot, PLANS[0] as ContentPlan, SCOPE))).length;
  for (const path of paths) await time(times.read, () => store.getFile(snapshot, path));
  for (const plan of PLANS) found += (await time(times.search, () => store.searchCandidates(snapshot, plan, SCOPE))).length;
  await store.close();
  return found;
}

const ms = (values: number[]) => `${median(values).toFixed(2)} ms`;

async function main() {
  const Old = baselineStore();
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-blob-bench-'));
  try {
    const files = sources(fileCount);
    const docs = sharedRefs(files, refCount);
    const oldFile = join(dir, 'old.sqlite');
    const newFile = join(dir, 'new.sqlite');
    const oldWrite = await write(Old, oldFile, docs);
    const newWrite = await write(SqliteIndexStore, newFile, docs);
    const contentBytes = files.reduce((sum, f) => sum + f.content.length, 0);
    const oldBytes = fileBytes(oldFile);
    const newBytes = fileBytes(newFile);
    const oneRef = join(dir, 'one-ref.sqlite');
    await write(SqliteIndexStore, oneRef, docs.slice(0, files.length));
    const oneRefBytes = fileBytes(oneRef);
    console.log(`${files.length} files (${(contentBytes / 2 ** 20).toFixed(1)} MiB) x ${refCount} refs sharing 99 %`);
    console.log(
      `  bytes: layout 5 ${(oldBytes / 2 ** 20).toFixed(1)} MiB, layout 6 ${(newBytes / 2 ** 20).toFixed(1)} MiB (${(oldBytes / newBytes).toFixed(2)}x smaller); one ref alone, layout 6: ${(oneRefBytes / 2 ** 20).toFixed(1)} MiB`,
    );
    console.log(`  writing all refs: layout 5 ${oldWrite.toFixed(0)} ms, layout 6 ${newWrite.toFixed(0)} ms`);

    const paths = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / 200)) === 0).map((f) => f.path);
    const oldTimes: ReadTimes = { coldRead: [], coldSearch: [], read: [], search: [] };
    const newTimes: ReadTimes = { coldRead: [], coldSearch: [], read: [], search: [] };
    for (let round = 0; round < rounds; round += 1) {
      const a = await readRound(Old, oldFile, paths, oldTimes);
      const b = await readRound(SqliteIndexStore, newFile, paths, newTimes);
      if (a !== b) throw new Error(`the layouts found different files: ${a} against ${b}`);
    }
    for (const key of ['coldRead', 'coldSearch', 'read', 'search'] as const) {
      console.log(`  ${key}: layout 5 ${ms(oldTimes[key])}, layout 6 ${ms(newTimes[key])} (${(median(newTimes[key]) / median(oldTimes[key])).toFixed(2)}x)`);
    }

    // The migration of a large layout 5 file: distinct blobs (a comment per copy).
    const all = sources(Number.MAX_SAFE_INTEGER);
    const large: FileDocument[] = [];
    for (let copy = 0; large.length < largeCount; copy += 1) {
      for (const file of all) {
        if (large.length >= largeCount) break;
        large.push(document({ path: `copy-${copy}/${file.path}`, content: Buffer.concat([file.content, Buffer.from(`\n// copy ${copy}\n`)]) }, 'refs/heads/main'));
      }
    }
    const largeFile = join(dir, 'large.sqlite');
    await write(Old, largeFile, large);
    const largeOldBytes = fileBytes(largeFile);
    const openStarted = performance.now();
    const store = new SqliteIndexStore({ file: largeFile, migrateInBackground: false });
    const before = await store.migrateBlobs();
    const openMs = performance.now() - openStarted;
    const batchMs: number[] = [];
    const readMs: number[] = [];
    const snapshot: Snapshot = { repositoryId: 1, ref: 'refs/heads/main', generation: 1 };
    const started = performance.now();
    for (;;) {
      const progress = await time(batchMs, () => store.migrateBlobs(MIGRATION_BATCH));
      await time(readMs, () => store.searchCandidates(snapshot, PLANS[1] as ContentPlan, SCOPE));
      if (progress.remaining === 0) break;
    }
    const totalMs = performance.now() - started - readMs.reduce((a, b) => a + b, 0);
    await store.close();
    console.log(`${large.length} files in one ref (layout 5, ${(largeOldBytes / 2 ** 20).toFixed(1)} MiB) moved to blobs: ${before.remaining} rows`);
    console.log(`  open (layout check, new tables, count): ${openMs.toFixed(0)} ms`);
    console.log(`  batches of ${MIGRATION_BATCH}: ${batchMs.length}, median ${ms(batchMs)}, slowest ${Math.max(...batchMs).toFixed(1)} ms; whole move ${(totalMs / 1000).toFixed(1)} s`);
    console.log(`  a search between batches: median ${ms(readMs)}, slowest ${Math.max(...readMs).toFixed(1)} ms`);
    console.log(`  after: ${(fileBytes(largeFile) / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
