import Database from 'better-sqlite3';
import { PortError, type SignInRecordKind, type SignInStore } from '@gitdex/ports';
import { configureConnection } from '../index-store/schema';

interface Row {
  key: string;
  value: string;
  expires_at: number | null;
}

/**
 * Sign-in records in a table of their own (file of the caller's choosing: the data folder's
 * sign-in.sqlite). `take` is one DELETE … RETURNING statement, which SQLite runs under its
 * write lock: of two processes on one data folder, exactly one gets the record.
 */
export class SqliteSignInStore implements SignInStore {
  private readonly db: Database.Database;

  constructor(options: { file: string }) {
    this.db = new Database(options.file);
    configureConnection(this.db);
    this.db.exec(`CREATE TABLE IF NOT EXISTS sign_in (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER, PRIMARY KEY (kind, key)) WITHOUT ROWID`);
  }

  put(kind: SignInRecordKind, key: string, value: object, expiresAt: Date | null): Promise<void> {
    return this.run(`write ${kind}`, () => {
      this.db
        .prepare(`INSERT INTO sign_in (kind, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`)
        .run(kind, key, JSON.stringify(value), expiresAt ? expiresAt.getTime() : null);
    });
  }

  get<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null> {
    return this.run(`read ${kind}`, () => {
      const row = this.db
        .prepare<[string, string, number], Row>(`SELECT key, value, expires_at FROM sign_in WHERE kind = ? AND key = ? AND (expires_at IS NULL OR expires_at > ?)`)
        .get(kind, key, now.getTime());
      return row ? (JSON.parse(row.value) as T) : null;
    });
  }

  take<T extends object>(kind: SignInRecordKind, key: string, now: Date): Promise<T | null> {
    return this.run(`take ${kind}`, () => {
      const row = this.db.prepare<[string, string], Row>(`DELETE FROM sign_in WHERE kind = ? AND key = ? RETURNING key, value, expires_at`).get(kind, key);
      if (!row || (row.expires_at !== null && row.expires_at <= now.getTime())) return null;
      return JSON.parse(row.value) as T;
    });
  }

  delete(kind: SignInRecordKind, key: string): Promise<void> {
    return this.run(`delete ${kind}`, () => {
      this.db.prepare(`DELETE FROM sign_in WHERE kind = ? AND key = ?`).run(kind, key);
    });
  }

  list<T extends object>(kind: SignInRecordKind, now: Date, limit: number): Promise<{ key: string; value: T }[]> {
    return this.run(`list ${kind}`, () =>
      this.db
        .prepare<[string, number, number], Row>(`SELECT key, value, expires_at FROM sign_in WHERE kind = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key LIMIT ?`)
        .all(kind, now.getTime(), limit)
        .map((row) => ({ key: row.key, value: JSON.parse(row.value) as T })),
    );
  }

  sweep(now: Date): Promise<number> {
    return this.run('sweep', () => this.db.prepare(`DELETE FROM sign_in WHERE expires_at IS NOT NULL AND expires_at <= ?`).run(now.getTime()).changes);
  }

  close(): void {
    this.db.close();
  }

  private run<T>(action: string, body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite sign-in ${action}: ${error instanceof Error ? error.message : String(error)}`, { retriable: true, cause: error }));
    }
  }
}
