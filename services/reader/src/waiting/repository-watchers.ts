import type { RefState } from '@gitdex/contracts';
import type { Log } from '@gitdex/observability';
import type { Repeat } from './repeat';

/** Told after a poll of a repository's ref states: all of them, and those that serve a new generation since this listener last saw them. */
export type StatesListener = (states: RefState[], flipped: RefState[]) => void;

export interface RepositoryWatchersOptions {
  /** How often a watched repository's ref states are read. */
  intervalMs: number;
  /** The timer (tests run the polls by hand). */
  repeat: Repeat;
  logger?: Log | undefined;
}

interface Listening {
  listener: StatesListener;
  /** Generation of each ref this listener has seen; null until its first poll. */
  seen: Map<string, number> | null;
}

interface Watch {
  listeners: Set<Listening>;
  stop: () => void;
  polling: boolean;
}

/**
 * One watcher per repository per process, whoever waits on it: while a repository has a waiter
 * (a tool call with min_commit, a subscription, a changes stream), its ref states are read once
 * an interval (through the reader's index, so the read is shared with the tools' own lookups
 * within the metadata window) and every listener hears the answer. The index pays per watched
 * repository, never per waiter. The last listener to leave stops the polls.
 */
export class RepositoryWatchers {
  private readonly watches = new Map<number, Watch>();

  constructor(
    private readonly read: (repositoryId: number) => Promise<RefState[]>,
    private readonly options: RepositoryWatchersOptions,
  ) {}

  /**
   * Starts hearing a repository's polls; the returned function stops. `baseline`, the states
   * the caller already knows, makes the first poll report what flipped since them.
   */
  listen(repositoryId: number, listener: StatesListener, baseline?: RefState[]): () => void {
    let watch = this.watches.get(repositoryId);
    if (!watch) {
      const made: Watch = { listeners: new Set(), polling: false, stop: () => undefined };
      made.stop = this.options.repeat(this.options.intervalMs, () => void this.poll(repositoryId, made));
      this.watches.set(repositoryId, made);
      watch = made;
    }
    const entry: Listening = { listener, seen: baseline ? generationsOf(baseline) : null };
    watch.listeners.add(entry);
    const current = watch;
    return () => {
      current.listeners.delete(entry);
      if (current.listeners.size > 0 || this.watches.get(repositoryId) !== current) return;
      current.stop();
      this.watches.delete(repositoryId);
    };
  }

  /** Repositories watched and listeners in all: what a client that left must leave behind at zero. */
  counts(): { repositories: number; listeners: number } {
    let listeners = 0;
    for (const watch of this.watches.values()) listeners += watch.listeners.size;
    return { repositories: this.watches.size, listeners };
  }

  private async poll(repositoryId: number, watch: Watch): Promise<void> {
    if (watch.polling) return;
    watch.polling = true;
    try {
      const states = await this.read(repositoryId);
      const now = generationsOf(states);
      for (const entry of [...watch.listeners]) {
        const seen = entry.seen;
        const flipped = seen === null ? [] : states.filter((state) => state.commitSha !== null && state.generation > (seen.get(state.ref) ?? 0));
        entry.seen = now;
        entry.listener(states, flipped);
      }
    } catch (error) {
      // The next poll tries again; a waiter's own deadline still ends its wait.
      this.options.logger?.warn({ err: error, repositoryId }, 'reader: reading ref states for waiters failed');
    } finally {
      watch.polling = false;
    }
  }
}

function generationsOf(states: RefState[]): Map<string, number> {
  return new Map(states.map((state) => [state.ref, state.generation]));
}
