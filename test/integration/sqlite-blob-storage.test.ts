/**
 * The SQLite index's blob layout (layout 6): a blob's content stored once per repository,
 * and an index file written by the release before (layout 5, built here from that release's
 * DDL and rows) moved to it by gitdex itself while reads answer, ending equal to a fresh file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FileDocument } from '@gitdex/contracts';
import type { LogContext } from '@gitdex/observability';
import type { ContentPlan, FileWrite, Snapshot } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { MAIN, makeFile, put, retire, retired, suggestQuery } from '../conformance/index-store.fixtures';
import { writeLayout5 } from '../../libs/sqlite/test/layout-5';

const dir = mkdtempSync(join(tmpdir(), 'gitdex-sqlite-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FEATURE = 'refs/heads/feature';
const REPOS = [21, 22];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

/** Two repositories, two refs each sharing most files, a second generation, a binary file with its bytes. */
function history(): { docs: FileDocument[]; snapshots: Snapshot[] } {
  const docs: FileDocument[] = [];
  const snapshots: Snapshot[] = [];
  for (const repositoryId of REPOS) {
    for (const ref of [MAIN, FEATURE]) {
      for (let i = 0; i < 12; i += 1) {
        // Files 0-9 are the same blob on both refs; 10 and 11 differ by ref.
        const content = i < 10 ? `export const shared${i} = ${i}; // sharedMarker\n` : `export const only = "${ref}${i}"; // refMarker\n`;
        docs.push(makeFile({ repositoryId, ref, path: `src/m${i % 3}/f${i}.ts`, content }));
      }
      docs.push(
        makeFile({
          repositoryId,
          ref,
          path: 'assets/logo.png',
          content: null,
          size: PNG.length,
          encoding: null,
          contentBase64: PNG.toString('base64'),
          flags: { binary: true, vendored: false, generated: false, tooLarge: false },
        }),
      );
      // Generation 2 changes f0 (retiring its first version) and copies f1's blob to a new path.
      const f0 = docs.find((d) => d.repositoryId === repositoryId && d.ref === ref && d.path === 'src/m0/f0.ts') as FileDocument;
      docs[docs.indexOf(f0)] = retired(f0, 2);
      docs.push(makeFile({ repositoryId, ref, path: 'src/m0/f0.ts', content: 'export const changed = 0; // changedMarker\n', fromGeneration: 2 }));
      docs.push(makeFile({ repositoryId, ref, path: 'docs/copy.ts', content: 'export const shared1 = 1; // sharedMarker\n', fromGeneration: 2 }));
      for (const generation of [1, 2]) snapshots.push({ repositoryId, ref, generation });
    }
  }
  return { docs, snapshots };
}

/** The same documents as the port writes them: puts of first versions, then retirements. */
function asWrites(docs: FileDocument[]): FileWrite[] {
  const puts = docs.map(({ retiredAtGeneration: _r, ...doc }) => put(doc));
  const retires = docs.filter((d) => d.retiredAtGeneration !== undefined).map((d) => retire(d, d.retiredAtGeneration as number));
  return [...puts, ...retires];
}

const SCOPE = { includeGenerated: true, afterPath: null, limit: 1000 };
const PLANS: ContentPlan[] = [{ op: 'all' }, { op: 'substring', text: 'sharedmarker' }, { op: 'substring', text: 'changedmarker' }, { op: 'substring', text: 'refs/heads/feature11' }];

/** Everything a reader can ask of the snapshots, as one value to compare. */
async function readAll(store: SqliteIndexStore, snapshots: Snapshot[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const snapshot of snapshots) {
    const files = await store.visibleFiles(snapshot, null, 1000, 1_000_000);
    answers.push(
      files,
      await store.getFile(snapshot, 'assets/logo.png'),
      await store.readContents(snapshot, ['src/m0/f0.ts', 'docs/copy.ts']),
      await Promise.all(PLANS.map((plan) => store.searchCandidates(snapshot, plan, SCOPE))),
      await store.unsearchableFiles(snapshot, SCOPE),
      await store.listFolders({ ...snapshot, folder: '', depth: 5 }),
      await store.listFiles({ ...snapshot, folder: 'src', depth: 5 }, null, 100),
      await store.stats(snapshot),
      await store.suggestCandidates(snapshot, suggestQuery('src/m0/f0.ts')),
      await store.findByBlobSha(snapshot, (files[0] as FileDocument).blobSha, 10),
    );
  }
  return answers;
}

/** The stored rows that carry meaning (ids left out: they number rows in write order). */
function logicalDump(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      files: all(`SELECT f.id, f.path, f.depth, f.from_gen, f.retired_gen, f.blob_sha, f.kind, f.language, f.category, f.size, f.summary,
          b.content AS row_content, b.tokens, b.trigrams, bl.blob_sha AS blob_of_row, s.repository_id AS blob_repository
        FROM files f JOIN scopes s ON s.scope_id = f.scope_id JOIN file_bodies b ON b.fid = f.fid LEFT JOIN blobs bl ON bl.blob_id = f.blob_id ORDER BY f.id`),
      blobs: all(`SELECT bl.repository_id, bl.blob_sha, bl.content, r.bytes FROM blobs bl LEFT JOIN blob_raw r ON r.blob_id = bl.blob_id ORDER BY 1, 2`),
      folders: all(`SELECT f.id, d.folder, d.folder_depth, d.from_gen, d.retired_gen FROM file_folders d JOIN files f ON f.fid = d.fid ORDER BY 1, 2`),
      terms: all(`SELECT f.id, t.kind, t.term FROM file_terms t JOIN files f ON f.fid = t.fid ORDER BY 1, 2, 3`),
      counts: all(`SELECT (SELECT count(*) FROM file_text) AS contentIndex, (SELECT count(*) FROM blobs WHERE content IS NOT NULL) AS blobsWithContent,
        (SELECT count(*) FROM file_text WHERE rowid NOT IN (SELECT blob_id FROM blobs WHERE content IS NOT NULL)) AS strayContentRows,
        (SELECT count(*) FROM file_raw) AS legacyRaw,
        (SELECT count(*) FROM files WHERE blob_id IS NULL) AS legacyRows, (SELECT value FROM index_meta WHERE key = 'schema_version') AS version`),
    };
  } finally {
    db.close();
  }
}

function countRows(file: string): { blobs: number; blobText: number; blobRaw: number; files: number } {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return { blobs: count('blobs'), blobText: count('file_text'), blobRaw: count('blob_raw'), files: count('files') };
  } finally {
    db.close();
  }
}

const { docs, snapshots } = history();
let fresh: { file: string; reads: unknown[] };

beforeAll(async () => {
  const file = join(dir, 'fresh.sqlite');
  const store = new SqliteIndexStore({ file });
  await store.writeFiles(asWrites(docs));
  fresh = { file, reads: await readAll(store, snapshots) };
  await store.close();
});

describe('SQLite blob storage', () => {
  it('stores a blob shared by refs, paths and generations once, and deletes it with its last holder', async () => {
    const rows = countRows(fresh.file);
    const shas = new Set(docs.map((d) => `${d.repositoryId} ${d.blobSha}`));
    expect(rows.files).toBe(docs.length);
    expect(rows.blobs).toBe(shas.size);
    // Per repository: 10 shared + 2 per ref + the changed f0 + the png (f1's copy is f1's blob).
    expect(rows.blobs).toBe(REPOS.length * (10 + 2 * 2 + 1 + 1));
    expect(rows.blobText).toBe(rows.blobs - REPOS.length);
    expect(rows.blobRaw).toBe(REPOS.length);

    const file = join(dir, 'shared.sqlite');
    const store = new SqliteIndexStore({ file });
    await store.writeFiles(asWrites(docs));
    await store.deleteRef(REPOS[0] as number, FEATURE);
    // Only the feature ref's two own files went: everything else is still named by main.
    expect(countRows(file)).toMatchObject({ blobs: shas.size - 2 });
    await store.pruneRetired(REPOS[0] as number, MAIN, 2);
    expect(countRows(file)).toMatchObject({ blobs: shas.size - 3 });
    await store.deleteRepository(REPOS[0] as number);
    expect(countRows(file)).toEqual({ blobs: shas.size / 2, blobText: rows.blobText / 2, blobRaw: 1, files: docs.length / 2 });
    await store.close();
  });

  it('moves a layout 5 file to blobs in batches, answering every read the same throughout, with writes between batches, and ends equal to a fresh file', async () => {
    const file = join(dir, 'upgraded.sqlite');
    writeLayout5(file, docs);
    const store = new SqliteIndexStore({ file, migrateInBackground: false });
    expect(await store.migrateBlobs()).toEqual({ migrated: 0, remaining: docs.length });
    expect(await readAll(store, snapshots)).toEqual(fresh.reads);

    // The same late writes on both files, made halfway: a new ref sharing blobs, a deleted ref, a prune.
    const late = [makeFile({ repositoryId: 22, ref: 'refs/heads/late', path: 'src/m1/f1.ts', content: 'export const shared1 = 1; // sharedMarker\n' })];
    const lateWrites = async (target: SqliteIndexStore) => {
      await target.writeFiles(late.map(put));
      await target.deleteRef(21, FEATURE);
      await target.pruneRetired(22, MAIN, 2);
    };
    const after = snapshots.filter((s) => !(s.repositoryId === 21 && s.ref === FEATURE));
    const lateSnapshots = [...after, { repositoryId: 22, ref: 'refs/heads/late', generation: 1 }];

    const freshLate = join(dir, 'fresh-late.sqlite');
    const reference = new SqliteIndexStore({ file: freshLate });
    await reference.writeFiles(asWrites(docs));
    await lateWrites(reference);
    const expected = await readAll(reference, lateSnapshots);
    await reference.close();

    // The late writes come after the first batch: most rows are still of layout 5 then.
    let batches = 0;
    for (;;) {
      const progress = await store.migrateBlobs(7);
      batches += 1;
      if (batches === 1) await lateWrites(store);
      expect(await readAll(store, lateSnapshots)).toEqual(expected);
      if (progress.remaining === 0) break;
    }
    expect(batches).toBeGreaterThan(5);
    await store.close();

    const reopened = new SqliteIndexStore({ file, migrateInBackground: false });
    expect(await reopened.migrateBlobs()).toEqual({ migrated: 0, remaining: 0 });
    expect(await readAll(reopened, lateSnapshots)).toEqual(expected);
    await reopened.close();
    const dump = logicalDump(file);
    expect(dump).toEqual(logicalDump(freshLate));
    expect(dump.counts).toEqual([expect.objectContaining({ strayContentRows: 0, legacyRaw: 0, legacyRows: 0, version: '8' })]);
  });

  it('moves a layout 5 file in the background on open, telling its progress, reads answering meanwhile', async () => {
    const file = join(dir, 'background.sqlite');
    writeLayout5(file, docs);
    const lines: { context: LogContext; message: string }[] = [];
    const record = (context: LogContext, message: string) => void lines.push({ context, message });
    const store = new SqliteIndexStore({ file, migrationBatch: 5, log: { info: record, warn: record, error: record } });
    let reads = 0;
    while ((await store.migrateBlobs()).remaining > 0) {
      expect(await store.searchCandidates(snapshots[0] as Snapshot, PLANS[1] as ContentPlan, SCOPE)).toEqual((fresh.reads[3] as unknown[])[1]);
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(reads).toBeGreaterThan(1);
    expect(await readAll(store, snapshots)).toEqual(fresh.reads);
    await store.close();
    expect(lines[0]).toEqual({ context: expect.objectContaining({ remaining: docs.length }), message: expect.stringMatching(/moving file contents to blobs/) });
    expect(lines[lines.length - 1]).toEqual({ context: expect.objectContaining({ migrated: docs.length, remaining: 0 }), message: expect.stringMatching(/every file content is stored by blob/) });
    expect(logicalDump(file)).toEqual(logicalDump(fresh.file));
  });
});
