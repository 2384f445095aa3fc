import type { Database, RunResult } from 'better-sqlite3';
import { prepareRawBytes, type RawBytesStatements } from './raw-bytes';
import { prepareSymbolWrites, type SymbolWriteStatements } from './symbol-store';
import { prepareNameList, type NameList } from './symbol-name-list';

import { PLAIN, visibleAt, type Visibility } from './visibility';

/**
 * A file version with its body: the content is its blob's, or on a row written by layout 5
 * or older and not yet migrated (blob_id NULL, no blob joins) the row's own in file_bodies.
 */
const BODY_COLUMNS = `f.fid, f.scope_id, f.summary, f.retired_gen, f.blob_id, coalesce(bl.content, b.content) AS content, b.tokens, b.trigrams`;
const BODY_FROM = `files f JOIN file_bodies b ON b.fid = f.fid LEFT JOIN blobs bl ON bl.blob_id = f.blob_id`;

export interface FileRow {
  fid: number;
  scope_id: number;
  summary: string;
  retired_gen: number | null;
  blob_id: number | null;
}

export interface FileBodyRow extends FileRow {
  content: string | null;
  tokens: string;
  trigrams: string;
}

type Params = Record<string, unknown>;
/** The part of a better-sqlite3 prepared statement we use, bound with named parameters (or none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Stmt<R = any> {
  run(...params: Params[]): RunResult;
  get(...params: Params[]): R | undefined;
  all(...params: Params[]): R[];
}

function build(db: Database, vis: Visibility) {
  const p = <R>(sql: string): Stmt<R> => db.prepare(sql) as unknown as Stmt<R>;
  /** Statements answering one column: rows come back as plain values. */
  const v = <R>(sql: string): Stmt<R> => db.prepare(sql).pluck() as unknown as Stmt<R>;
  return {
    // scopes
    scopeId: v<number>(`SELECT scope_id FROM scopes WHERE repository_id = @repositoryId AND ref = @ref`),
    insertScope: p(`INSERT OR IGNORE INTO scopes (repository_id, ref) VALUES (@repositoryId, @ref)`),
    scopesOfRepository: v<number>(`SELECT scope_id FROM scopes WHERE repository_id = @repositoryId`),
    deleteScope: p(`DELETE FROM scopes WHERE scope_id = @s`),
    deleteScopeTerms: p(`DELETE FROM file_terms WHERE scope_id = @s`),
    deleteScopeFolders: p(`DELETE FROM file_folders WHERE scope_id = @s`),
    deleteScopeText: p(`DELETE FROM file_text WHERE rowid IN (SELECT fid FROM files WHERE scope_id = @s AND blob_id IS NULL)`),
    blobsOfScope: v<number>(`SELECT DISTINCT blob_id FROM files WHERE scope_id = @s AND blob_id IS NOT NULL`),
    deleteScopeBodies: p(`DELETE FROM file_bodies WHERE fid IN (SELECT fid FROM files WHERE scope_id = @s)`),
    deleteScopeFiles: p(`DELETE FROM files WHERE scope_id = @s`),

    // repositories and ref states
    getRepository: v<string>(`SELECT doc FROM repositories WHERE repository_id = @repositoryId`),
    findRepository: v<string>(`SELECT doc FROM repositories WHERE full_name_lower = @name ORDER BY repository_id LIMIT 1`),
    listRepositories: v<string>(`SELECT doc FROM repositories ORDER BY full_name_lower, repository_id`),
    putRepository: p(`INSERT INTO repositories (repository_id, full_name_lower, doc) VALUES (@repositoryId, @name, @doc)
      ON CONFLICT (repository_id) DO UPDATE SET full_name_lower = excluded.full_name_lower, doc = excluded.doc`),
    deleteRepository: p(`DELETE FROM repositories WHERE repository_id = @repositoryId`),
    getRefState: v<string>(`SELECT doc FROM ref_states WHERE repository_id = @repositoryId AND ref = @ref`),
    listRefStates: v<string>(`SELECT doc FROM ref_states ORDER BY repository_id, ref`),
    listRefStatesOf: v<string>(`SELECT doc FROM ref_states WHERE repository_id = @repositoryId ORDER BY ref`),
    putRefState: p(`INSERT INTO ref_states (repository_id, ref, doc) VALUES (@repositoryId, @ref, @doc)
      ON CONFLICT (repository_id, ref) DO UPDATE SET doc = excluded.doc`),
    deleteRefState: p(`DELETE FROM ref_states WHERE repository_id = @repositoryId AND ref = @ref`),
    deleteRefStatesOf: p(`DELETE FROM ref_states WHERE repository_id = @repositoryId`),

    // file writes
    fileById: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM} WHERE f.id = @id`),
    insertFile: p(`INSERT INTO files (id, scope_id, path, depth, from_gen, retired_gen, blob_sha, kind, language, category, size, name_lower, path_lower, summary, blob_id)
      VALUES (@id, @s, @path, @depth, @fromGen, @retiredGen, @blobSha, @kind, @language, @category, @size, @nameLower, @pathLower, @summary, @blobId)`),
    insertBody: p(`INSERT INTO file_bodies (fid, content, tokens, trigrams) VALUES (@fid, NULL, @tokens, @trigrams)`),
    /** The content index, keyed by CONTENT_KEY (schema.ts). */
    insertText: p(`INSERT INTO file_text (rowid, words) VALUES (@key, @words)`),
    deleteText: p(`DELETE FROM file_text WHERE rowid = @key`),

    // blobs
    blobBySha: p<{ blob_id: number; content: string | null }>(`SELECT blob_id, content FROM blobs WHERE repository_id = @repositoryId AND blob_sha = @blobSha`),
    // Above every fid of a file upgraded from layout 5 (CONTENT_KEY in schema.ts).
    insertBlob: p(`INSERT INTO blobs (blob_id, repository_id, blob_sha, content) VALUES (
      max(coalesce((SELECT max(blob_id) FROM blobs), 0), coalesce((SELECT CAST(value AS INTEGER) FROM index_meta WHERE key = 'blob_id_floor'), 0)) + 1,
      @repositoryId, @blobSha, @content)`),
    /** A blob moved from a row of layout 5, taking the row's fid and so its content index entry. */
    insertMigratedBlob: p(`INSERT INTO blobs (blob_id, repository_id, blob_sha, content) VALUES (@blobId, @repositoryId, @blobSha, @content)`),
    setBlobContent: p(`UPDATE blobs SET content = @content WHERE blob_id = @blobId`),
    deleteBlob: p(`DELETE FROM blobs WHERE blob_id = @blobId`),
    blobReferenced: v<number>(`SELECT 1 FROM files WHERE blob_id = @blobId LIMIT 1`),
    insertFolder: p(`INSERT OR IGNORE INTO file_folders (scope_id, folder, fid, folder_depth, from_gen, retired_gen)
      VALUES (@s, @folder, @fid, @depth, @fromGen, @retiredGen)`),
    insertTerm: p(`INSERT OR IGNORE INTO file_terms (scope_id, kind, term, fid) VALUES (@s, @kind, @term, @fid)`),
    deleteFile: p(`DELETE FROM files WHERE fid = @fid`),
    deleteBody: p(`DELETE FROM file_bodies WHERE fid = @fid`),
    deleteFolder: p(`DELETE FROM file_folders WHERE scope_id = @s AND folder = @folder AND fid = @fid`),
    deleteTerm: p(`DELETE FROM file_terms WHERE scope_id = @s AND kind = @kind AND term = @term AND fid = @fid`),
    setRetired: p(`UPDATE files SET retired_gen = @retiredGen WHERE fid = @fid`),
    setFolderRetired: p(`UPDATE file_folders SET retired_gen = @retiredGen WHERE scope_id = @s AND folder = @folder AND fid = @fid`),
    filesFromAfter: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM} WHERE f.scope_id = @s AND f.from_gen > @g`),
    filesRetiredAfter: p<FileRow>(`SELECT fid, scope_id, summary, retired_gen, blob_id FROM files
      WHERE scope_id = @s AND retired_gen IS NOT NULL AND retired_gen > @g`),
    filesRetiredUpTo: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM} WHERE f.scope_id = @s AND f.retired_gen IS NOT NULL AND f.retired_gen <= @g`),

    // reads
    visibleEntries: p<{ path: string; blobSha: string; kind: string; fromGeneration: number }>(
      `SELECT path, blob_sha AS blobSha, kind, from_gen AS fromGeneration FROM files
       WHERE ${vis.scope('')} AND path > @after AND ${vis.visible('')} ORDER BY path, from_gen LIMIT @limit`,
    ),
    lookupEntries: p<{ path: string; blobSha: string; kind: string; fromGeneration: number }>(
      `SELECT path, blob_sha AS blobSha, kind, from_gen AS fromGeneration FROM files
       WHERE ${vis.scope('')} AND path IN (SELECT value FROM json_each(@paths)) AND ${vis.visible('')} ORDER BY path, from_gen`,
    ),
    getFile: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM}
      WHERE ${vis.scope('f')} AND f.path = @path AND ${vis.visible('f')} ORDER BY f.from_gen DESC LIMIT 1`),
    visibleFiles: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM}
      WHERE ${vis.scope('f')} AND f.path > @after AND f.size <= @maxSize AND ${vis.visible('f')} ORDER BY f.path, f.from_gen LIMIT @limit`),
    fileVersions: p<FileBodyRow>(`SELECT ${BODY_COLUMNS}
      FROM ${BODY_FROM}
      WHERE f.scope_id = @s AND f.path = @path AND (f.retired_gen IS NULL OR f.retired_gen > @since) ORDER BY f.from_gen DESC LIMIT @limit`),
    outlineVersions: p<FileRow & { outline: string | null }>(`SELECT f.fid, f.scope_id, f.summary, f.retired_gen, f.blob_id, bs.outline
      FROM files f LEFT JOIN blob_symbols bs ON bs.blob_id = f.blob_id
      WHERE f.scope_id = @s AND f.path = @path AND (f.retired_gen IS NULL OR f.retired_gen > @since) ORDER BY f.from_gen DESC LIMIT @limit`),
    rootFolders: p<{ path: string; fileCount: number }>(`SELECT folder AS path, COUNT(*) AS fileCount FROM file_folders
      WHERE ${vis.scope('')} AND folder_depth <= @maxDepth AND ${vis.visible('')}
      GROUP BY folder ORDER BY folder LIMIT @cap`),
    subFolders: p<{ path: string; fileCount: number }>(`SELECT folder AS path, COUNT(*) AS fileCount FROM file_folders
      WHERE ${vis.scope('')} AND folder >= @lo AND folder < @hi AND folder_depth <= @maxDepth AND ${vis.visible('')}
      GROUP BY folder ORDER BY folder LIMIT @cap`),
    rootFilesTotal: v<number>(`SELECT COUNT(*) FROM files WHERE ${vis.scope('')} AND depth <= @maxDepth AND ${vis.visible('')}`),
    subFilesTotal: v<number>(`SELECT COUNT(*) FROM files
      WHERE ${vis.scope('')} AND path >= @lo AND path < @hi AND depth <= @maxDepth AND ${vis.visible('')}`),
    rootFilesPage: p<FileRow>(`SELECT fid, scope_id, summary, retired_gen, blob_id FROM files
      WHERE ${vis.scope('')} AND path > @after AND depth <= @maxDepth AND ${vis.visible('')} ORDER BY path, from_gen LIMIT @limit`),
    subFilesPage: p<FileRow>(`SELECT fid, scope_id, summary, retired_gen, blob_id FROM files
      WHERE ${vis.scope('')} AND path >= @lo AND path < @hi AND path > @after AND depth <= @maxDepth AND ${vis.visible('')}
      ORDER BY path, from_gen LIMIT @limit`),
    stats: p<{ language: string | null; category: string; files: number; bytes: number }>(
      `SELECT language, category, COUNT(*) AS files, TOTAL(size) AS bytes FROM files
       WHERE ${vis.scope('')} AND ${vis.visible('')} GROUP BY language, category`,
    ),
    findByBlobSha: v<string>(`SELECT path FROM files WHERE ${vis.scope('')} AND blob_sha = @blobSha AND ${vis.visible('')}
      ORDER BY path LIMIT @limit`),
    findRetired: p<FileRow>(`SELECT fid, scope_id, summary, retired_gen, blob_id FROM files
      WHERE scope_id = @s AND path = @path AND retired_gen IS NOT NULL AND retired_gen <= @g
      ORDER BY retired_gen DESC, from_gen DESC LIMIT 1`),
    retiredPaths: v<string>(`SELECT DISTINCT path FROM files WHERE scope_id = @s AND retired_gen IS NOT NULL AND retired_gen <= @g
      ORDER BY path LIMIT @limit`),
    snapshotsWithPath: v<number>(`SELECT j.key FROM json_each(@snapshots) j WHERE EXISTS (
        SELECT 1 FROM scopes s JOIN files f ON f.scope_id = s.scope_id
        WHERE s.repository_id = j.value ->> '$.repositoryId' AND s.ref = j.value ->> '$.ref' AND f.path = @path
          AND ${visibleAt('f', `(j.value ->> '$.generation')`)})
      ORDER BY j.key`),
  };
}

export type Statements = { [K in keyof ReturnType<typeof build>]: Stmt } & { raw: RawBytesStatements; symbols: SymbolWriteStatements; names: NameList };
export const prepareStatements = (db: Database, vis: Visibility = PLAIN): Statements => {
  const names = prepareNameList(db);
  return { ...build(db, vis), raw: prepareRawBytes(db), symbols: prepareSymbolWrites(db, names), names };
};
