import Database from 'better-sqlite3';
import { PortError, type Lease, type LeaseStore } from '@gitdex/ports';
import { configureConnection } from './schema';

interface LeaseRow {
  holder: string;
  expires_at: number;
}

/**
 * Leases in a table of their own in the index file, taken inside an IMMEDIATE transaction
 * (SQLite's write lock): of two processes on one data folder asking at once, the second
 * reads what the first wrote.
 */
export class SqliteLeases implements LeaseStore {
  private readonly db: Database.Database;

  constructor(options: { file: string }) {
    this.db = new Database(options.file);
    configureConnection(this.db);
    this.db.exec(`CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
  }

  acquireLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
    return this.run(`take lease ${name}`, () =>
      this.db
        .transaction(() => {
          const current = this.db.prepare<[string], LeaseRow>(`SELECT holder, expires_at FROM leases WHERE name = ?`).get(name);
          if (current && current.holder !== holder && current.expires_at > now.getTime()) return false;
          this.db
            .prepare(`INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at`)
            .run(name, holder, now.getTime() + ttlMs);
          return true;
        })
        .immediate(),
    );
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return this.run(`release lease ${name}`, () => {
      this.db.prepare(`DELETE FROM leases WHERE name = ? AND holder = ?`).run(name, holder);
    });
  }

  readLease(name: string): Promise<Lease | null> {
    return this.run(`read lease ${name}`, () => {
      const row = this.db.prepare<[string], LeaseRow>(`SELECT holder, expires_at FROM leases WHERE name = ?`).get(name);
      return row ? { name, holder: row.holder, expiresAt: new Date(row.expires_at).toISOString() } : null;
    });
  }

  close(): void {
    this.db.close();
  }

  private run<T>(action: string, body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite ${action}: ${error instanceof Error ? error.message : String(error)}`, { retriable: true, cause: error }));
    }
  }
}
