/**
 * Runs work one at a time per key, in the order it arrives. The indexer's group members
 * share a process: when a partition moves to another member while an event is being
 * handled (a rebalance), the event is delivered again, and the second delivery must wait
 * for the first and then find its work done, not index the same ref at the same time and
 * discard the documents the first one is writing.
 */
export class OneAtATime {
  private readonly queues = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    // The queue only orders: it goes on after this work whatever its outcome, which reaches the caller through `result`.
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    try {
      return await result;
    } finally {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    }
  }

  /** Keys with work under way or waiting (for tests and metrics). */
  get size(): number {
    return this.queues.size;
  }
}
