import type { LeaseStore } from '@gitdex/ports';
import type { ReconcileReport } from './reconcile';
import type { Timers } from './reconcile-schedule';

/** The one lease every gitdex process asks for before a reconciler pass. */
export const RECONCILER_LEASE = 'reconciler';

/** A crashed holder's lease frees after this; the holder renews every third of it. */
export const DEFAULT_LEASE_TTL_MS = 60_000;

export interface ReconcilerLeaseOptions {
  leases: LeaseStore;
  /** Who this process is (host and pid), as the lease and the logs name it. */
  holder: string;
  ttlMs?: number;
  now: () => Date;
  timers: Timers;
}

/**
 * Which process reconciles: the one holding the lease. The holder keeps it (renewed every
 * third of its lifetime, passes or not), so the interval and the ETags its conditional
 * requests need stay in one process; the others ask as often and take over once a crashed
 * holder's lease expires. A holder whose renewals fail stops counting itself the holder when
 * its last renewal would have expired, before anyone else can take it over.
 */
export class ReconcilerLease {
  private heldUntil = 0;
  private timer: unknown = null;
  private stopped = false;
  private readonly ttlMs: number;

  constructor(private readonly options: ReconcilerLeaseOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    if (!(this.ttlMs > 0)) throw new RangeError(`the reconciler lease needs a positive lifetime, got ${this.ttlMs} ms`);
  }

  get holder(): string {
    return this.options.holder;
  }

  /** Takes or renews the lease now; true while this process holds it. */
  async tryHold(): Promise<boolean> {
    const at = this.options.now();
    let ok: boolean;
    try {
      ok = await this.options.leases.acquireLease(RECONCILER_LEASE, this.options.holder, this.ttlMs, at);
    } catch {
      // The store did not answer: what was held stays held until it would have expired.
      return this.holds();
    }
    this.heldUntil = ok ? at.getTime() + this.ttlMs : 0;
    return ok;
  }

  holds(): boolean {
    return this.options.now().getTime() < this.heldUntil;
  }

  /** Renews (or tries to take over) every third of the lifetime until stop(). */
  start(): void {
    const tick = (): void => {
      this.timer = this.options.timers.setTimeout(() => {
        void this.tryHold().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.ttlMs / 3);
    };
    tick();
  }

  /** Stops renewing and gives the lease up, so another process need not wait for it to expire. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.options.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.heldUntil > 0) await this.options.leases.releaseLease(RECONCILER_LEASE, this.options.holder).catch(() => undefined);
    this.heldUntil = 0;
  }

  /** Who holds it, for a skipped pass's report. */
  async describeHolder(): Promise<string> {
    const current = await this.options.leases.readLease(RECONCILER_LEASE).catch(() => null);
    return current ? `${current.holder} until ${current.expiresAt}` : 'another process';
  }
}

/**
 * A pass that runs only while this process holds the lease: one that does not hold it reports
 * who does and checks nothing; one that loses it mid-pass stops at the next ref.
 */
export async function leasedPass(lease: ReconcilerLease, pass: (stillHeld: () => boolean) => Promise<ReconcileReport>): Promise<ReconcileReport> {
  if (!(await lease.tryHold())) return skippedReport(await lease.describeHolder());
  return pass(() => lease.holds());
}

export function skippedReport(heldBy: string): ReconcileReport {
  return { checked: 0, drifted: [], metadata: [], failed: [], requests: { lists: 0, listPages: 0, repositories: 0, heads: 0, notModified: 0 }, membership: { added: [], removed: [] }, heldBy };
}
