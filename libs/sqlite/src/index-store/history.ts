import Database from 'better-sqlite3';
import { PortError, unreferencedHistory, type CommitRecord, type HistoryBlob, type HistoryStore, type IndexCallOptions, type RefHistory, type StoredVersionBlame } from '@gitdex/ports';
import { configureConnection } from './schema';

/**
 * History in tables of their own in the index file, added beside the content layout (a file of
 * an older build gains them when it opens; an older build never reads them):
 *
 * - `commits`: one row per (repository, sha), the record as JSON without its sha.
 * - `ref_history`: per (repository, ref) the head and the shas held, as a JSON array.
 * - `history_blobs`: the bytes of each blob a held commit names, once per (repository, sha).
 * - `version_blames`: per (repository, held key, path) a version's blame as JSON runs, with its
 *   commit's sha so pruning drops it with the commit.
 *
 * Rowid tables, not WITHOUT ROWID: their rows (records of a few hundred bytes to a few kB, blobs
 * of kilobytes) stay on their b-tree page up to nearly a page, where a WITHOUT ROWID row moves
 * everything past about a quarter page to an overflow page of its own.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS commits (
  repository_id INTEGER NOT NULL,
  sha TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (repository_id, sha)
) STRICT;
CREATE TABLE IF NOT EXISTS ref_history (
  repository_id INTEGER NOT NULL,
  ref TEXT NOT NULL,
  head TEXT NOT NULL,
  commits TEXT NOT NULL,
  PRIMARY KEY (repository_id, ref)
) STRICT;
CREATE TABLE IF NOT EXISTS history_blobs (
  repository_id INTEGER NOT NULL,
  sha TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (repository_id, sha)
) STRICT;
CREATE TABLE IF NOT EXISTS version_blames (
  repository_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  path TEXT NOT NULL,
  sha TEXT NOT NULL,
  blame TEXT NOT NULL,
  PRIMARY KEY (repository_id, key, path)
) STRICT;
CREATE INDEX IF NOT EXISTS version_blames_by_commit ON version_blames (repository_id, sha);
`;

/** Shas per statement: below SQLite's default limit of 32,766 bound parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

function placeholders(n: number): string {
  return new Array<string>(n).fill('?').join(',');
}

export class SqliteHistory implements HistoryStore {
  private readonly db: Database.Database;

  constructor(options: { file: string }) {
    this.db = new Database(options.file);
    configureConnection(this.db);
    this.db.exec(DDL);
  }

  ensureHistoryReady(): Promise<void> {
    return Promise.resolve();
  }

  getRefHistory(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefHistory | null> {
    return this.run('read ref history', options, () => {
      const row = this.db.prepare<[number, string], { head: string; commits: string }>(`SELECT head, commits FROM ref_history WHERE repository_id = ? AND ref = ?`).get(repositoryId, ref);
      return row ? { repositoryId, ref, head: row.head, commits: JSON.parse(row.commits) as string[] } : null;
    });
  }

  getCommits(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<CommitRecord[]> {
    return this.run('read commits', options, () => {
      const out: CommitRecord[] = [];
      for (const part of chunks([...new Set(shas)])) {
        const rows = this.db
          .prepare<unknown[], { sha: string; record: string }>(`SELECT sha, record FROM commits WHERE repository_id = ? AND sha IN (${placeholders(part.length)})`)
          .all(repositoryId, ...part);
        for (const row of rows) out.push({ sha: row.sha, ...(JSON.parse(row.record) as Omit<CommitRecord, 'sha'>) });
      }
      return out;
    });
  }

  readHistoryBlobs(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<Map<string, Buffer>> {
    return this.run('read history blobs', options, () => {
      const out = new Map<string, Buffer>();
      for (const part of chunks([...new Set(shas)])) {
        const rows = this.db
          .prepare<unknown[], { sha: string; content: Buffer }>(`SELECT sha, content FROM history_blobs WHERE repository_id = ? AND sha IN (${placeholders(part.length)})`)
          .all(repositoryId, ...part);
        for (const row of rows) out.set(row.sha, row.content);
      }
      return out;
    });
  }

  getVersionBlames(repositoryId: number, wanted: readonly { key: string; path: string }[], options?: IndexCallOptions): Promise<StoredVersionBlame[]> {
    return this.run('read version blames', options, () => {
      const get = this.db.prepare<[number, string, string], { sha: string; blame: string }>(`SELECT sha, blame FROM version_blames WHERE repository_id = ? AND key = ? AND path = ?`);
      const out: StoredVersionBlame[] = [];
      for (const { key, path } of wanted) {
        const row = get.get(repositoryId, key, path);
        if (row) out.push({ key, path, commit: row.sha, blame: JSON.parse(row.blame) as StoredVersionBlame['blame'] });
      }
      return out;
    });
  }

  putVersionBlames(repositoryId: number, blames: readonly StoredVersionBlame[]): Promise<void> {
    return this.run('write version blames', undefined, () => {
      const insert = this.db.prepare(`INSERT OR IGNORE INTO version_blames (repository_id, key, path, sha, blame) VALUES (?, ?, ?, ?, ?)`);
      this.db.transaction(() => {
        for (const b of blames) insert.run(repositoryId, b.key, b.path, b.commit, JSON.stringify(b.blame));
      })();
    });
  }

  putCommits(repositoryId: number, commits: readonly CommitRecord[]): Promise<void> {
    return this.run('write commits', undefined, () => {
      const insert = this.db.prepare(`INSERT OR IGNORE INTO commits (repository_id, sha, record) VALUES (?, ?, ?)`);
      this.db.transaction(() => {
        for (const { sha, ...record } of commits) insert.run(repositoryId, sha, JSON.stringify(record));
      })();
    });
  }

  putRefHistory(history: RefHistory): Promise<void> {
    return this.run('write ref history', undefined, () => {
      this.db
        .prepare(`INSERT INTO ref_history (repository_id, ref, head, commits) VALUES (?, ?, ?, ?) ON CONFLICT (repository_id, ref) DO UPDATE SET head = excluded.head, commits = excluded.commits`)
        .run(history.repositoryId, history.ref, history.head, JSON.stringify(history.commits));
    });
  }

  deleteRefHistory(repositoryId: number, ref: string): Promise<void> {
    return this.run('delete ref history', undefined, () => {
      this.db.prepare(`DELETE FROM ref_history WHERE repository_id = ? AND ref = ?`).run(repositoryId, ref);
    });
  }

  pruneCommits(repositoryId: number): Promise<void> {
    return this.run('prune commits', undefined, () => {
      this.db
        .transaction(() => {
          const held = this.db.prepare<[number], { commits: string }>(`SELECT commits FROM ref_history WHERE repository_id = ?`).all(repositoryId);
          const commits = this.db.prepare<[number], { sha: string; record: string }>(`SELECT sha, record FROM commits WHERE repository_id = ?`).all(repositoryId);
          const blobs = this.db.prepare<[number], { sha: string }>(`SELECT sha FROM history_blobs WHERE repository_id = ?`).all(repositoryId);
          const drop = unreferencedHistory(
            held.map((row) => JSON.parse(row.commits) as string[]),
            commits.map((row) => ({ sha: row.sha, ...(JSON.parse(row.record) as Omit<CommitRecord, 'sha'>) })),
            blobs.map((row) => row.sha),
          );
          const dropCommit = this.db.prepare(`DELETE FROM commits WHERE repository_id = ? AND sha = ?`);
          const dropBlob = this.db.prepare(`DELETE FROM history_blobs WHERE repository_id = ? AND sha = ?`);
          const dropBlames = this.db.prepare(`DELETE FROM version_blames WHERE repository_id = ? AND sha = ?`);
          for (const sha of drop.commits) dropCommit.run(repositoryId, sha);
          for (const sha of drop.commits) dropBlames.run(repositoryId, sha);
          for (const sha of drop.blobs) dropBlob.run(repositoryId, sha);
        })
        .immediate();
    });
  }

  deleteHistory(repositoryId: number): Promise<void> {
    return this.run('delete history', undefined, () => {
      this.db.transaction(() => {
        for (const table of ['commits', 'ref_history', 'history_blobs', 'version_blames']) this.db.prepare(`DELETE FROM ${table} WHERE repository_id = ?`).run(repositoryId);
      })();
    });
  }

  missingHistoryBlobs(repositoryId: number, shas: readonly string[]): Promise<string[]> {
    return this.run('look up history blobs', undefined, () => {
      const have = new Set<string>();
      for (const part of chunks([...new Set(shas)])) {
        const rows = this.db.prepare<unknown[], { sha: string }>(`SELECT sha FROM history_blobs WHERE repository_id = ? AND sha IN (${placeholders(part.length)})`).all(repositoryId, ...part);
        for (const row of rows) have.add(row.sha);
      }
      return [...new Set(shas)].filter((sha) => !have.has(sha));
    });
  }

  putHistoryBlobs(repositoryId: number, blobs: readonly HistoryBlob[]): Promise<void> {
    return this.run('write history blobs', undefined, () => {
      const insert = this.db.prepare(`INSERT OR IGNORE INTO history_blobs (repository_id, sha, content) VALUES (?, ?, ?)`);
      this.db.transaction(() => {
        for (const blob of blobs) insert.run(repositoryId, blob.sha, blob.content);
      })();
    });
  }

  close(): void {
    this.db.close();
  }

  private run<T>(action: string, options: IndexCallOptions | undefined, body: () => T): Promise<T> {
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason as Error);
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite ${action}: ${error instanceof Error ? error.message : String(error)}`, { retriable: true, cause: error }));
    }
  }
}
