import Database from 'better-sqlite3';
import { PortError, type PermissionStore, type PersonPermissions } from '@gitdex/ports';
import { configureConnection } from '../index-store/schema';

interface PersonRow {
  user_id: number;
  login: string;
  refreshed_at: string;
}

/**
 * The permission mirror's state in two tables of the index file: a row per person and one
 * per (person, repository) grant, so a grant or a withdrawal is one row and "who holds this
 * repository" is an index lookup. Writes run in IMMEDIATE transactions, as the leases do.
 */
export class SqlitePermissions implements PermissionStore {
  private readonly db: Database.Database;

  constructor(options: { file: string }) {
    this.db = new Database(options.file);
    configureConnection(this.db);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS people (user_id INTEGER PRIMARY KEY, login TEXT NOT NULL, refreshed_at TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS people_refreshed ON people (refreshed_at);
      CREATE TABLE IF NOT EXISTS person_repositories (user_id INTEGER NOT NULL, repository_id INTEGER NOT NULL, PRIMARY KEY (user_id, repository_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS person_repositories_by_repository ON person_repositories (repository_id, user_id);
    `);
  }

  getPerson(userId: number): Promise<PersonPermissions | null> {
    return this.run('read a person', () => {
      const row = this.db.prepare<[number], PersonRow>(`SELECT user_id, login, refreshed_at FROM people WHERE user_id = ?`).get(userId);
      return row ? this.withRepositories(row) : null;
    });
  }

  putPerson(person: PersonPermissions): Promise<void> {
    return this.run('store a person', () =>
      this.db
        .transaction(() => {
          this.db
            .prepare(`INSERT INTO people (user_id, login, refreshed_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET login = excluded.login, refreshed_at = excluded.refreshed_at`)
            .run(person.userId, person.login, person.refreshedAt);
          this.db.prepare(`DELETE FROM person_repositories WHERE user_id = ?`).run(person.userId);
          const insert = this.db.prepare(`INSERT OR IGNORE INTO person_repositories (user_id, repository_id) VALUES (?, ?)`);
          for (const id of person.repositoryIds) insert.run(person.userId, id);
        })
        .immediate(),
    );
  }

  grant(userId: number, repositoryId: number): Promise<boolean> {
    return this.run('grant a repository', () =>
      this.db
        .transaction(() => {
          if (!this.db.prepare(`SELECT 1 FROM people WHERE user_id = ?`).get(userId)) return false;
          this.db.prepare(`INSERT OR IGNORE INTO person_repositories (user_id, repository_id) VALUES (?, ?)`).run(userId, repositoryId);
          return true;
        })
        .immediate(),
    );
  }

  withdraw(userId: number, repositoryId: number): Promise<boolean> {
    return this.run('withdraw a repository', () => this.db.prepare(`DELETE FROM person_repositories WHERE user_id = ? AND repository_id = ?`).run(userId, repositoryId).changes > 0);
  }

  holders(repositoryId: number, limit: number): Promise<number[]> {
    return this.run('list holders', () =>
      this.db
        .prepare<[number, number], { user_id: number }>(`SELECT user_id FROM person_repositories WHERE repository_id = ? ORDER BY user_id LIMIT ?`)
        .all(repositoryId, limit)
        .map((r) => r.user_id),
    );
  }

  dueForRefresh(before: string, limit: number): Promise<number[]> {
    return this.run('list people due', () =>
      this.db
        .prepare<[string, number], { user_id: number }>(`SELECT user_id FROM people WHERE refreshed_at < ? ORDER BY refreshed_at, user_id LIMIT ?`)
        .all(before, limit)
        .map((r) => r.user_id),
    );
  }

  listPeople(limit: number): Promise<PersonPermissions[]> {
    return this.run('list people', () =>
      this.db
        .prepare<[number], PersonRow>(`SELECT user_id, login, refreshed_at FROM people ORDER BY login, user_id LIMIT ?`)
        .all(limit)
        .map((row) => this.withRepositories(row)),
    );
  }

  removePerson(userId: number): Promise<boolean> {
    return this.run('forget a person', () =>
      this.db
        .transaction(() => {
          this.db.prepare(`DELETE FROM person_repositories WHERE user_id = ?`).run(userId);
          return this.db.prepare(`DELETE FROM people WHERE user_id = ?`).run(userId).changes > 0;
        })
        .immediate(),
    );
  }

  close(): void {
    this.db.close();
  }

  private withRepositories(row: PersonRow): PersonPermissions {
    const ids = this.db
      .prepare<[number], { repository_id: number }>(`SELECT repository_id FROM person_repositories WHERE user_id = ? ORDER BY repository_id`)
      .all(row.user_id)
      .map((r) => r.repository_id);
    return { userId: row.user_id, login: row.login, repositoryIds: ids, refreshedAt: row.refreshed_at };
  }

  private run<T>(action: string, body: () => T): Promise<T> {
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite permissions, ${action}: ${error instanceof Error ? error.message : String(error)}`, { retriable: true, cause: error }));
    }
  }
}
