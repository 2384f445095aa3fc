import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { eventKey, GitdexEventSchema, type GitdexEvent } from '@gitdex/contracts';
import { errorFields, type Log } from '@gitdex/observability';
import type { DeadLetterStore, EventBatchHandler, EventConsumer, EventEnvelope, EventHeaders, EventPublisher } from '@gitdex/ports';
import { PortError } from '@gitdex/ports';
import { createEventLogSchema } from './schema';
import { SqliteDeadLetters } from './sqlite-dead-letters';

export interface SqliteEventLogOptions {
  /** Database file; the event log shares nothing with the index database. */
  file: string;
  /** Repositories handled at the same time. */
  concurrency?: number;
  /** Wait before a batch whose handler threw is offered again. */
  retryDelayMs?: number;
  /** Where failures in the background go: a handler that threw, a row that is not an event. */
  log: Log;
}

interface Row {
  seq: number;
  partition_key: string;
  payload: string;
  headers: string;
}

/**
 * The single-process event log. A publish returns only after the rows are committed
 * with synchronous=FULL, so an acknowledged delivery survives a crash; rows are
 * deleted only after the handler resolved. One repository's events are handled in
 * order, one batch at a time, like a Kafka partition.
 */
export class SqliteEventLog implements EventPublisher, EventConsumer {
  private readonly db: Database.Database;
  private readonly wake = new EventEmitter();
  private readonly inflight = new Set<string>();
  private readonly concurrency: number;
  private readonly retryDelayMs: number;
  private running = false;
  private pumping: Promise<void> | null = null;
  private readonly insert;
  private readonly pending;
  private readonly remove;
  private readonly postpone;

  private readonly letters: SqliteDeadLetters;

  constructor(private readonly options: SqliteEventLogOptions) {
    if (!options.file) throw new PortError('INVALID', 'SqliteEventLogOptions.file is required');
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    createEventLogSchema(this.db);
    this.concurrency = options.concurrency ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.insert = this.db.prepare('INSERT INTO event_log (partition_key, payload, headers, enqueued_at) VALUES (?, ?, ?, ?)');
    this.pending = this.db.prepare('SELECT seq, partition_key, payload, headers FROM event_log WHERE not_before <= ? ORDER BY seq LIMIT 1000');
    this.remove = this.db.prepare('DELETE FROM event_log WHERE seq = ?');
    this.postpone = this.db.prepare('UPDATE event_log SET not_before = ? WHERE seq = ?');
    this.wake.setMaxListeners(0);
    this.letters = new SqliteDeadLetters(this.db);
  }

  /** The dead letters of this log, kept in the same database. */
  deadLetters(): DeadLetterStore {
    return this.letters;
  }

  async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void> {
    const now = Date.now();
    this.db.transaction(() => {
      for (const { event, headers } of events) {
        this.insert.run(eventKey(event), JSON.stringify(GitdexEventSchema.parse(event)), JSON.stringify(headers ?? {}), now);
      }
    })();
    this.wake.emit('wake');
  }

  async ping(): Promise<boolean> {
    return this.db.open;
  }

  get healthy(): boolean {
    return this.db.open;
  }

  async start(handler: EventBatchHandler): Promise<void> {
    this.running = true;
    this.pumping = this.pump(handler);
  }

  async lag(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM event_log').get() as { n: number }).n;
  }

  /** Stops taking new batches and waits for the running ones. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake.emit('wake');
    await this.pumping;
    while (this.inflight.size > 0) await new Promise((resolve) => this.wake.once('done', resolve));
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.db.open) this.db.close();
  }

  private async pump(handler: EventBatchHandler): Promise<void> {
    while (this.running) {
      if (this.inflight.size < this.concurrency) {
        for (const group of this.nextGroups(this.concurrency - this.inflight.size)) this.run(handler, group);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 500);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake.once('wake', done);
      });
    }
  }

  private nextGroups(slots: number): Row[][] {
    const groups = new Map<string, Row[]>();
    for (const row of this.pending.all(Date.now()) as Row[]) {
      if (this.inflight.has(row.partition_key)) continue;
      const group = groups.get(row.partition_key);
      if (group) group.push(row);
      else if (groups.size < slots) groups.set(row.partition_key, [row]);
    }
    return [...groups.values()];
  }

  private run(handler: EventBatchHandler, rows: Row[]): void {
    const key = rows[0]!.partition_key;
    const envelopes = this.decode(rows);
    if (envelopes.length === 0) return;
    const handled = rows.filter((row) => envelopes.some((e) => e.position === `sqlite/${row.seq}`));
    this.inflight.add(key);
    handler(envelopes, { heartbeat: async () => undefined })
      .then(() => {
        this.db.transaction(() => handled.forEach((row) => this.remove.run(row.seq)))();
      })
      .catch((error: unknown) => {
        this.options.log.warn({ ...errorFields(error), partitionKey: key, events: handled.length }, 'event log: a batch failed; offered again after the retry delay');
        if (this.db.open) this.db.transaction(() => handled.forEach((row) => this.postpone.run(Date.now() + this.retryDelayMs, row.seq)))();
      })
      .finally(() => {
        this.inflight.delete(key);
        this.wake.emit('done');
        this.wake.emit('wake');
      });
  }

  /**
   * The rows as events. A row that is not a valid event can never succeed: it goes to the dead
   * letters with its reason and leaves the log, instead of throwing in the pump and stalling it.
   */
  private decode(rows: Row[]): EventEnvelope[] {
    const envelopes: EventEnvelope[] = [];
    for (const row of rows) {
      try {
        const event = GitdexEventSchema.parse(JSON.parse(row.payload));
        envelopes.push({ event, headers: JSON.parse(row.headers) as EventHeaders, position: `sqlite/${row.seq}` });
      } catch (error) {
        const reason = `malformed event-log row ${row.seq}: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`;
        this.options.log.error({ seq: row.seq, partitionKey: row.partition_key }, reason);
        this.db.transaction(() => {
          this.letters.addSync({ raw: row.payload, reason, attempts: 0, failedAt: new Date().toISOString() });
          this.remove.run(row.seq);
        })();
      }
    }
    return envelopes;
  }
}
