import type Database from 'better-sqlite3';
import { DeadLetterSchema, eventOfDeadLetter, type DeadLetter } from '@gitdex/contracts';
import type { DeadLetterStore, EventPublisher } from '@gitdex/ports';

/** Dead letters of the embedded event log, in the same database. */
export class SqliteDeadLetters implements DeadLetterStore {
  constructor(private readonly db: Database.Database) {}

  async add(letter: DeadLetter): Promise<void> {
    this.addSync(letter);
  }

  /** The same, inside a transaction of the event log (a malformed row leaves the log as it is dead-lettered). */
  addSync(letter: DeadLetter): void {
    this.db.prepare('INSERT INTO dead_letters (letter, created_at) VALUES (?, ?)').run(JSON.stringify(DeadLetterSchema.parse(letter)), Date.now());
  }

  async list(limit: number): Promise<{ id: string; letter: DeadLetter }[]> {
    const rows = this.db.prepare('SELECT id, letter FROM dead_letters ORDER BY id LIMIT ?').all(limit) as { id: number; letter: string }[];
    return rows.map((row) => ({ id: String(row.id), letter: DeadLetterSchema.parse(JSON.parse(row.letter)) }));
  }

  async replay(publisher: EventPublisher, ids?: string[]): Promise<number> {
    const letters = (await this.list(Number.MAX_SAFE_INTEGER)).filter((l) => !ids || ids.includes(l.id));
    const events = letters.flatMap(({ letter }) => {
      const event = eventOfDeadLetter(letter);
      return event ? [{ event, headers: { 'gitdex-replayed-from': 'dlq' } }] : [];
    });
    await publisher.publish(events);
    const remove = this.db.prepare('DELETE FROM dead_letters WHERE id = ?');
    this.db.transaction(() => letters.forEach((l) => remove.run(Number(l.id))))();
    return events.length;
  }
}
