import type { Database } from 'better-sqlite3';
import type { FileDocument } from '@gitdex/contracts';

/**
 * Read fidelity: the exact bytes of a file version whose `content` does not give them back
 * as UTF-8 (binary and non-UTF-8 files), one BLOB per version in a table of its own, so
 * listings and counts never touch it and older index files gain it without a migration.
 */
export const RAW_BYTES_DDL = `
CREATE TABLE IF NOT EXISTS file_raw (
  fid INTEGER PRIMARY KEY,
  bytes BLOB NOT NULL
) STRICT;
`;

export interface RawBytesStatements {
  put(fid: number, base64: string): void;
  get(fid: number): string | undefined;
  remove(fid: number): void;
  removeScope(scopeId: number): void;
}

export function prepareRawBytes(db: Database): RawBytesStatements {
  const insert = db.prepare(`INSERT OR REPLACE INTO file_raw (fid, bytes) VALUES (?, ?)`);
  const select = db.prepare(`SELECT bytes FROM file_raw WHERE fid = ?`).pluck();
  const remove = db.prepare(`DELETE FROM file_raw WHERE fid = ?`);
  const removeScope = db.prepare(`DELETE FROM file_raw WHERE fid IN (SELECT fid FROM files WHERE scope_id = ?)`);
  return {
    put: (fid, base64) => void insert.run(fid, Buffer.from(base64, 'base64')),
    get: (fid) => {
      const bytes = select.get(fid) as Buffer | undefined;
      return bytes === undefined ? undefined : bytes.toString('base64');
    },
    remove: (fid) => void remove.run(fid),
    removeScope: (scopeId) => void removeScope.run(scopeId),
  };
}

/** The document with its stored bytes put back. */
export function withRawBytes(doc: FileDocument, fid: number, raw: RawBytesStatements): FileDocument {
  const base64 = raw.get(fid);
  return base64 === undefined ? doc : { ...doc, contentBase64: base64 };
}
