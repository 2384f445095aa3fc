import { passComplete, passProblem, type ReconcileReport } from './reconcile';

/** What a caller (readyz, `gitdex status`, an alert) needs to know about the reconciler. */
export interface ReconcilerStatus {
  intervalSeconds: number;
  running: boolean;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Why the last pass failed; null once a later pass succeeded. */
  lastError: string | null;
  lastDurationSeconds: number | null;
  /** No successful pass for more than two intervals (since start, before the first one). */
  late: boolean;
  /** Null while all is well: otherwise one line saying what is wrong, for /readyz's degraded list. */
  degraded: string | null;
}

/** One finished pass, for metrics and logs. */
export interface PassResult {
  startedAt: Date;
  finishedAt: Date;
  report: ReconcileReport | null;
  /** Set when the pass threw or did not reach every repository and ref. */
  problem: string | null;
  error?: unknown;
}

/** setTimeout and clearTimeout, injectable so tests drive the schedule without waiting. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: Timers = {
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface ReconcileScheduleOptions {
  /** One pass (reconcile() with its dependencies, inside the reconciler lease). */
  pass: () => Promise<ReconcileReport>;
  intervalSeconds: number;
  /** The wait after a pass, when it depends on what the pass spent (the rate-limit budget); default intervalSeconds. */
  nextIntervalSeconds?: (result: PassResult) => number;
  /** Runs once the schedule stopped and its last pass ended (gives the reconciler lease up). */
  onStop?: () => Promise<void>;
  now: () => Date;
  timers?: Timers;
  onPass?: (result: PassResult) => void;
}

/**
 * Runs a pass at start and then one interval after the end of each pass (never two at once),
 * and keeps what a caller needs to see whether visibility is converging: last success, last
 * failure and why, duration, and whether the next success is overdue.
 */
export class ReconcileSchedule {
  private readonly timers: Timers;
  private readonly startedAt: Date;
  private timer: unknown = null;
  private current: Promise<void> | null = null;
  private stopped = false;
  private lastSuccessAt: Date | null = null;
  private lastFailureAt: Date | null = null;
  private lastError: string | null = null;
  private lastDurationSeconds: number | null = null;
  private intervalSeconds: number;

  constructor(private readonly options: ReconcileScheduleOptions) {
    if (!(options.intervalSeconds > 0)) throw new RangeError(`ReconcileSchedule needs a positive interval, got ${options.intervalSeconds}`);
    this.timers = options.timers ?? NODE_TIMERS;
    this.startedAt = options.now();
    this.intervalSeconds = options.intervalSeconds;
  }

  /** Starts the first pass now: visibility changes made while gitdex was down apply at once. */
  start(): void {
    this.runPass();
  }

  /** Resolves when the pass under way (if any) has finished. */
  async idle(): Promise<void> {
    await this.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.current;
    await this.options.onStop?.();
  }

  status(): ReconcilerStatus {
    const now = this.options.now().getTime();
    const since = (this.lastSuccessAt ?? this.startedAt).getTime();
    const late = now - since > 2 * this.intervalSeconds * 1000;
    const failed = this.lastError !== null;
    const degraded = failed
      ? `the last reconciler pass failed at ${this.lastFailureAt?.toISOString()}: ${this.lastError}`
      : late
        ? `no successful reconciler pass since ${this.lastSuccessAt ? this.lastSuccessAt.toISOString() : `start (${this.startedAt.toISOString()})`}, more than two intervals of ${this.intervalSeconds} s`
        : null;
    return {
      intervalSeconds: this.intervalSeconds,
      running: this.current !== null,
      lastSuccessAt: this.lastSuccessAt?.toISOString() ?? null,
      lastFailureAt: this.lastFailureAt?.toISOString() ?? null,
      lastError: this.lastError,
      lastDurationSeconds: this.lastDurationSeconds,
      late,
      degraded,
    };
  }

  private runPass(): void {
    this.timer = null;
    if (this.stopped || this.current) return;
    const startedAt = this.options.now();
    this.current = this.options
      .pass()
      .then(
        (report) => this.finish({ startedAt, finishedAt: this.options.now(), report, problem: passComplete(report) ? null : passProblem(report) }),
        (error: unknown) => this.finish({ startedAt, finishedAt: this.options.now(), report: null, problem: error instanceof Error ? error.message : String(error), error }),
      )
      .finally(() => {
        this.current = null;
        if (!this.stopped) this.timer = this.timers.setTimeout(() => this.runPass(), this.intervalSeconds * 1000);
      });
  }

  private finish(result: PassResult): void {
    const next = this.options.nextIntervalSeconds?.(result);
    if (next !== undefined && next > 0) this.intervalSeconds = next;
    this.lastDurationSeconds = (result.finishedAt.getTime() - result.startedAt.getTime()) / 1000;
    if (result.problem === null) {
      this.lastSuccessAt = result.finishedAt;
      this.lastError = null;
    } else {
      this.lastFailureAt = result.finishedAt;
      this.lastError = result.problem;
    }
    // Metrics and logs only report: a failure there must not stop the schedule (the status above is already kept).
    try {
      this.options.onPass?.(result);
    } catch {
      /* nothing else to report it to */
    }
  }
}
