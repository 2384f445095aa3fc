/**
 * The run of a background migration a process keeps: the first one tracked, until it fails.
 * A write meanwhile does not start a second (their counts would race); after a failure the next
 * write starts another.
 */
export class OneRun<T> {
  private run: Promise<T> | null = null;

  /** The run kept, if any (tests and shutdown wait for it). */
  get current(): Promise<T> | null {
    return this.run;
  }

  /** Keeps `run` when none is kept; returns it either way. */
  track(run: Promise<T>): Promise<T> {
    if (!this.run) {
      this.run = run;
      run.catch(() => {
        if (this.run === run) this.run = null;
      });
    }
    return run;
  }
}
