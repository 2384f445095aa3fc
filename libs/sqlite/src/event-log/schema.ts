import type Database from 'better-sqlite3';

/** The embedded event log: a table used as a durable queue, and its dead letters. */
export function createEventLogSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS event_log (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      partition_key TEXT NOT NULL,
      payload TEXT NOT NULL,
      headers TEXT NOT NULL,
      enqueued_at INTEGER NOT NULL,
      not_before INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS event_log_by_key ON event_log (partition_key, seq);
    CREATE TABLE IF NOT EXISTS dead_letters (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      letter TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
  `);
}
