import type { Database } from 'better-sqlite3';
import type { Statements } from './statements';

/**
 * The online move of file rows written by layout 5 or older (content on the row itself,
 * `blob_id` NULL) to blobs. Each batch is one short transaction: it gives the rows their
 * blob (written once per repository and sha), then clears the row's own content and bytes.
 * A blob takes the fid of the first row met holding it as its id, so that row's content
 * index entry is the blob's as it stands (CONTENT_KEY in schema.ts): the move copies
 * content but computes no words, and a later row of the same blob only drops its entry. Reads answer between batches and read both forms, so nothing waits
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
      const { fid, content } = row;
      const existing = st.blobBySha.get({ repositoryId: row.repository_id, blobSha: row.blob_sha }) as { blob_id: number } | undefined;
      let blobId = fid;
      if (existing) {
        blobId = existing.blob_id;
        if (content !== null) st.deleteText.run({ key: fid });
      } else {
        st.insertMigratedBlob.run({ blobId, repositoryId: row.repository_id, blobSha: row.blob_sha, content });
        const bytes = st.raw.get(fid, null);
        if (bytes !== undefined) st.raw.put(blobId, bytes);
      }
      setBlob.run(blobId, fid);
      if (content !== null) clearContent.run(fid);
      st.raw.removeLegacy(fid);
    }
    return rows.length;
  });
  return {
    remaining: () => remaining.get() as number,
    batch: (limit) => batch.immediate(limit),
  };
}
