/** A monotonic clock and an AbortSignal for the same deadline: the work checks one, the index calls get the other. */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly at: number;
  /** The same deadline in Date.now() milliseconds, for worker threads (they share no monotonic clock). */
  readonly until: number;
  constructor(ms: number) {
    this.at = performance.now() + ms;
    this.until = Date.now() + ms;
    this.timer = setTimeout(() => this.controller.abort(new Error('search deadline')), ms);
    this.timer.unref?.();
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  expired = (): boolean => this.controller.signal.aborted || performance.now() >= this.at;
  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Thrown where the work notices the deadline: the search answers what it found so far. */
export class DeadlineReached extends Error {}
