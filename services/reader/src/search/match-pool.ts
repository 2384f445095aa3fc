import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ContentPlan } from '@gitdex/ports';
import { DeadlineReached } from './deadline';
import type { MatchReply, MatchTask } from './match-worker';
import type { CompiledQuery } from './query';
import type { FileHits } from './verify';

/**
 * Worker threads that verify the contents too costly to verify on the main thread (a regex's
 * program times the content's length past IN_THREAD_COST): RE2 is linear in the text but also
 * in the program, and one call on one long line cannot look at a clock. A worker still busy at
 * its task's deadline (plus GRACE_MS) is terminated and replaced, so no search holds a core past
 * its deadline and the event loop (health checks, webhooks, other calls) is never blocked by one.
 */

/**
 * Program size × characters verified on the main thread at most, per content: at the worst
 * measured cost (a pattern whose every instruction stays alive, ~25–50 ns per character and
 * instruction) one such verification holds the event loop for 25–50 ms. Literals never count:
 * they are found with indexOf or a literal RegExp.
 */
export const IN_THREAD_COST = 1_000_000;
/** After the deadline, how long a worker may take to notice it before it is terminated. */
const GRACE_MS = 50;
/** Tasks waiting for a worker at most: searches in flight are capped (gate.ts), so this is never reached in use. */
const MAX_QUEUED = 1_024;
/** Heap of one worker: a content of a few MB and a compiled program of at most MAX_PROGRAM_SIZE. */
const WORKER_HEAP_MB = 256;

export const verifiesInThread = (query: CompiledQuery, length: number): boolean => query.literal !== null || query.asciiFoldedLiteral !== null || query.program * length <= IN_THREAD_COST;

interface Pending {
  task: MatchTask;
  resolve: (hits: FileHits) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
}

const TS_LOADER = ['tsx', 'cjs'].join('/');

/**
 * The worker's entry: the compiled file next to this one, or, when the reader runs from its
 * TypeScript sources (tests, tsx), the source through tsx's loader.
 */
function workerSource(): string {
  // tsx is the root's development loader, never a dependency of the built reader: only a run
  // from the sources reaches this line.
  if (__filename.endsWith('.ts')) return `require(${JSON.stringify(TS_LOADER)}); require(${JSON.stringify(join(__dirname, 'match-worker.ts'))});`;
  return `require(${JSON.stringify(join(__dirname, 'match-worker.js'))});`;
}

export class MatchPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** Workers terminated at a deadline, since start (for tests and docs). */
  terminated = 0;

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism() - 1))) {}

  /** findHits in a worker; rejects with DeadlineReached when the deadline stopped it first. */
  verify(query: CompiledQuery, plan: ContentPlan, content: string, keep: number, until: number): Promise<FileHits> {
    if (Date.now() >= until) return Promise.reject(new DeadlineReached());
    if (this.queue.length >= MAX_QUEUED) return Promise.reject(new DeadlineReached());
    return new Promise<FileHits>((resolve, reject) => {
      const task: MatchTask = { id: this.nextId++, query: { text: query.text, regex: query.regex, caseSensitive: query.caseSensitive }, plan, content, keep, until };
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  /** Workers verifying a content now. */
  busyWorkers(): number {
    return this.slots.filter((s) => s.busy !== null).length;
  }

  /** Stops every worker (a reader that closes; tests). */
  async close(): Promise<void> {
    for (const pending of this.queue.splice(0)) pending.reject(new DeadlineReached());
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.busy === null);
      if (!slot && this.slots.length < this.size) slot = this.start();
      if (!slot) return;
      const pending = this.queue.shift() as Pending;
      const wait = pending.task.until - Date.now();
      if (wait <= 0) {
        pending.reject(new DeadlineReached());
        continue;
      }
      slot.busy = pending;
      const busy = slot;
      slot.timer = setTimeout(() => this.abandon(busy), wait + GRACE_MS);
      slot.timer.unref();
      slot.worker.postMessage(pending.task);
    }
  }

  private start(): Slot {
    const worker = new Worker(workerSource(), { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    const slot: Slot = { worker, busy: null, timer: null };
    worker.on('message', (reply: MatchReply) => {
      const pending = slot.busy;
      if (pending === null || pending.task.id !== reply.id) return;
      this.release(slot);
      pending.resolve(reply.hits);
      this.dispatch();
    });
    const lost = (error: unknown) => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      const pending = slot.busy;
      this.release(slot);
      // A worker that failed (out of its heap, say) takes its task with it: the search stops there.
      pending?.reject(error instanceof DeadlineReached ? error : new DeadlineReached(String(error)));
      this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new DeadlineReached(`match worker exited (${code})`)));
    // A pool never keeps its process alive. After the listeners: adding a 'message' listener
    // refs the worker's port again.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /** The deadline passed and the worker has not answered: terminate it and give the search its answer. */
  private abandon(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || slot.busy === null) return;
    this.slots.splice(index, 1);
    const pending = slot.busy;
    this.release(slot);
    this.terminated += 1;
    void slot.worker.terminate();
    pending.reject(new DeadlineReached());
    this.dispatch();
  }

  private release(slot: Slot): void {
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
  }

  private async stop(slot: Slot): Promise<void> {
    this.release(slot);
    await slot.worker.terminate();
  }
}

/** The process's pool: started on first use, its workers unref'd (they never keep the process alive). */
let shared: MatchPool | null = null;
export function matchPool(): MatchPool {
  shared ??= new MatchPool();
  return shared;
}
