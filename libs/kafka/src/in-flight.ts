import type { EventEnvelope } from '@gitdex/ports';
import type { PartitionProgress } from './partition-progress';

/** How much one process holds between fetching an event and finishing it. */
export interface InFlightLimits {
  /** Events fetched and not finished (queued or being handled); fetching pauses at this many. */
  events: number;
  /** Bytes of those events' messages; fetching pauses past this (one event is always let in). */
  bytes: number;
  /** Keys (repositories) handled at the same time. */
  keys: number;
}

export const DEFAULT_IN_FLIGHT: InFlightLimits = { events: 1000, bytes: 16 * 1024 * 1024, keys: 32 };

/** One fetched event: its key orders it, its progress and offset say what it holds back from the commit. */
export interface InFlightEvent {
  envelope: EventEnvelope;
  key: string;
  bytes: number;
  progress: PartitionProgress;
  offset: bigint;
}

export interface InFlightOptions {
  limits: InFlightLimits;
  /** Handles the queued events of one key, oldest first; resolves once every one is done (dead letters included). */
  handle: (envelopes: EventEnvelope[]) => Promise<void>;
  /** Wait before a key's events whose handler threw are handled again; ends early when the scheduler closes. */
  retryDelayMs: number;
  onRetry: (error: unknown, key: string, events: number) => void;
  sleep?: (ms: number, closed: Promise<void>) => Promise<void>;
}

/**
 * Many keys in flight, each key's events strictly in order. Events are handed to the handler
 * grouped by key, one group of a key at a time, at most `limits.keys` groups at once; a key's
 * events that arrive while its group runs wait for it and form its next group. An event is
 * finished (and may be committed past) only when its handler resolved; a handler that threw is
 * retried with the same events, still holding the key, so nothing after them overtakes them.
 * `admit` waits while the in-flight bounds are reached: the caller (the fetch loop) stops
 * fetching, so memory stays bounded whatever the backlog.
 */
export class InFlightScheduler {
  private readonly queued = new Map<string, InFlightEvent[]>();
  private readonly running = new Set<string>();
  private readonly ready: string[] = [];
  private readonly runs = new Set<Promise<void>>();
  private waiters: (() => void)[] = [];
  private events = 0;
  private bytes = 0;
  private isClosed = false;
  private closeSignal!: () => void;
  private readonly closed = new Promise<void>((resolve) => (this.closeSignal = resolve));
  private readonly sleep: (ms: number, closed: Promise<void>) => Promise<void>;

  constructor(private readonly options: InFlightOptions) {
    const { limits } = options;
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`in-flight limit ${name} must be a positive integer (got ${String(value)})`);
    }
    this.sleep = options.sleep ?? ((ms, closed) => Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), closed]));
  }

  /** Events and bytes held now, and keys being handled (for tests and metrics). */
  get load(): { events: number; bytes: number; keys: number } {
    return { events: this.events, bytes: this.bytes, keys: this.running.size };
  }

  /** Waits for room, then queues the event. False when the scheduler closed meanwhile (nothing was queued). */
  async admit(item: InFlightEvent): Promise<boolean> {
    while (!this.isClosed && !this.hasRoomFor(item.bytes)) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.isClosed) return false;
    this.events += 1;
    this.bytes += item.bytes;
    const queue = this.queued.get(item.key);
    if (queue) queue.push(item);
    else this.queued.set(item.key, [item]);
    if (!this.running.has(item.key) && !this.ready.includes(item.key)) this.ready.push(item.key);
    this.startReady();
    return true;
  }

  /** Stops starting groups and admitting events, and waits for the groups under way (a retry stops at its next wait). */
  async close(): Promise<void> {
    this.isClosed = true;
    this.closeSignal();
    this.wakeWaiters();
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }

  private hasRoomFor(bytes: number): boolean {
    if (this.events === 0) return true;
    return this.events < this.options.limits.events && this.bytes + bytes <= this.options.limits.bytes;
  }

  private startReady(): void {
    while (!this.isClosed && this.running.size < this.options.limits.keys && this.ready.length > 0) {
      const key = this.ready.shift()!;
      const group = this.queued.get(key) ?? [];
      this.queued.delete(key);
      this.running.add(key);
      const run = this.runGroup(key, group).finally(() => {
        this.runs.delete(run);
        this.running.delete(key);
        if (this.queued.has(key)) this.ready.push(key);
        this.startReady();
      });
      this.runs.add(run);
    }
  }

  private async runGroup(key: string, group: InFlightEvent[]): Promise<void> {
    let live = group;
    try {
      for (;;) {
        // A revoked partition's events are left to its next owner: not handled here, never committed.
        live = live.filter((item) => !item.progress.retired);
        if (live.length === 0 || this.isClosed) return;
        try {
          await this.options.handle(live.map((item) => item.envelope));
          for (const item of live) item.progress.finish(item.offset);
          return;
        } catch (error) {
          this.options.onRetry(error, key, live.length);
          await this.sleep(this.options.retryDelayMs, this.closed);
        }
      }
    } finally {
      // Finished or abandoned, the events no longer hold memory; abandoned ones stay uncommitted.
      for (const item of group) {
        this.events -= 1;
        this.bytes -= item.bytes;
      }
      this.wakeWaiters();
    }
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
