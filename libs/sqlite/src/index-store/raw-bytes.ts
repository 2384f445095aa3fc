import type { Database } from 'better-sqlite3';
import type { FileDocument } from '@gitdex/contracts';

/**
 * Read fidelity: the exact bytes of a blob whose `content` does not give them back as UTF-8
 * (binary and non-UTF-8 files), one BLOB per blob in a table of its own, so listings and
 * counts never touch it. `file_raw` holds those of file rows written by layout 5 or older
 * until the blob migration moves them.
 */
export const RAW_BYTES_DDL = `
CREATE TABLE IF NOT EXISTS blob_raw (
  blob_id INTEGER PRIMARY KEY,
  bytes BLOB NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS file_raw (
  fid INTEGER PRIMARY KEY,
  bytes BLOB NOT NULL
) STRICT;
`;

export interface RawBytesStatements {
  put(blobId: number, base64: string | undefined): void;
  /** The bytes of a file row: its blob's, or (blobId null) the legacy row's own. */
  get(fid: number, blobId: number | null): string | undefined;
  removeBlob(blobId: number): void;
  removeLegacy(fid: number): void;
  removeLegacyScope(scopeId: number): void;
}

export function prepareRawBytes(db: Database): RawBytesStatements {
  const insert = db.prepare(`INSERT OR REPLACE INTO blob_raw (blob_id, bytes) VALUES (?, ?)`);
  const select = db.prepare(`SELECT bytes FROM blob_raw WHERE blob_id = ?`).pluck();
  const selectLegacy = db.prepare(`SELECT bytes FROM file_raw WHERE fid = ?`).pluck();
  const removeBlob = db.prepare(`DELETE FROM blob_raw WHERE blob_id = ?`);
  const removeLegacy = db.prepare(`DELETE FROM file_raw WHERE fid = ?`);
  const removeLegacyScope = db.prepare(`DELETE FROM file_raw WHERE fid IN (SELECT fid FROM files WHERE scope_id = ? AND blob_id IS NULL)`);
  return {
    put: (blobId, base64) => void (base64 === undefined ? removeBlob.run(blobId) : insert.run(blobId, Buffer.from(base64, 'base64'))),
    get: (fid, blobId) => {
      const bytes = (blobId === null ? selectLegacy.get(fid) : select.get(blobId)) as Buffer | undefined;
      return bytes === undefined ? undefined : bytes.toString('base64');
    },
    removeBlob: (blobId) => void removeBlob.run(blobId),
    removeLegacy: (fid) => void removeLegacy.run(fid),
    removeLegacyScope: (scopeId) => void removeLegacyScope.run(scopeId),
  };
}

/** The document with its stored bytes put back. */
export function withRawBytes(doc: FileDocument, fid: number, blobId: number | null, raw: RawBytesStatements): FileDocument {
  const base64 = raw.get(fid, blobId);
  return base64 === undefined ? doc : { ...doc, contentBase64: base64 };
}
