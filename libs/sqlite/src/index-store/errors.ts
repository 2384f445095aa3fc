import { PortError } from '@gitdex/ports';

/** SQLite errors that mean "try again later" (another writer holds the lock, disk full or failing). */
const TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR']);
/** The file cannot be opened or is not a database: a configuration error, retrying will not help. */
const MISCONFIGURED = new Set(['SQLITE_CANTOPEN', 'SQLITE_NOTADB', 'SQLITE_READONLY', 'SQLITE_PERM']);

/** Translates a better-sqlite3 failure into the port's error, naming the engine and the file. */
export function toPortError(error: unknown, file: string, action: string): PortError {
  if (error instanceof PortError) return error;
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
  const message = error instanceof Error ? error.message : String(error);
  const base = code.split('_').slice(0, 2).join('_');
  if (TRANSIENT.has(base) || TRANSIENT.has(code)) {
    return new PortError('UNAVAILABLE', `SQLite index ${file} unavailable during ${action}: ${message}`, { cause: error });
  }
  if (MISCONFIGURED.has(base) || MISCONFIGURED.has(code)) {
    return new PortError('INVALID', `SQLite index ${file} cannot be used (${action}): ${message}`, { cause: error });
  }
  if (code === 'SQLITE_CONSTRAINT' || code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH' || code === 'SQLITE_TOOBIG') {
    return new PortError('INVALID', `SQLite index ${file} rejected ${action}: ${message}`, { cause: error });
  }
  return new PortError('INTERNAL', `SQLite index ${file} failed during ${action}: ${message}`, { cause: error });
}
