import type { Database } from 'better-sqlite3';
import { acquireBlob } from './blobs';
import type { Statements } from './statements';

/**
 * The online move of file rows written by layout 5 or older (content on the row itself,
 * `blob_id` NULL) to blobs. Each batch is one short transaction: it gives the rows their
 * blob (written once per repository and sha), then clears the row's own content, content
 * index entry and bytes. Reads answer between batches and read both forms, so nothing waits
 * for the migration, and a process stopped halfway resumes at the next open.
 */

export interface BlobMigrationProgress {
  /** File rows moved to blobs by this process so far. */
  migrated: number;
  /** File rows still holding their own content. */
  remaining: number;
}

interface LegacyRow {
  fid: number;
  repository_id: number;
  blob_sha: string;
  content: string | null;
}

export interface BlobMigration {
  remaining(): number;
  /** Moves up to `limit` rows in one transaction; answers how many it moved. */
  batch(limit: number): number;
}

export function prepareBlobMigration(db: Database, st: Statements): BlobMigration {
  const remaining = db.prepare(`SELECT count(*) FROM files WHERE blob_id IS NULL`).pluck();
  const legacy = db.prepare<[number], LegacyRow>(`SELECT f.fid, s.repository_id, f.blob_sha, b.content
    FROM files f JOIN scopes s ON s.scope_id = f.scope_id JOIN file_bodies b ON b.fid = f.fid
    WHERE f.blob_id IS NULL ORDER BY f.blob_id, f.fid LIMIT ?`);
  const setBlob = db.prepare(`UPDATE files SET blob_id = ? WHERE fid = ?`);
  const clearContent = db.prepare(`UPDATE file_bodies SET content = NULL WHERE fid = ?`);
  const batch = db.transaction((limit: number) => {
    const rows = legacy.all(limit);
    for (const row of rows) {
      const body = { content: row.content, contentBase64: st.raw.get(row.fid, null) };
      const blobId = acquireBlob(st, row.repository_id, row.blob_sha, body, false);
      setBlob.run(blobId, row.fid);
      if (row.content !== null) {
        st.deleteText.run({ fid: row.fid });
        clearContent.run(row.fid);
      }
      st.raw.removeLegacy(row.fid);
    }
    return rows.length;
  });
  return {
    remaining: () => remaining.get() as number,
    batch: (limit) => batch.immediate(limit),
  };
}
