/** Who holds a lease, until when. */
export interface Lease {
  name: string;
  holder: string;
  /** ISO time after which another holder may take it. */
  expiresAt: string;
}

/**
 * Leases: one holder at a time for work that must not run twice at once across processes
 * (the reconciler's pass). Taken and renewed with optimistic concurrency by the store, so two
 * processes asking at the same moment cannot both win; times come from the caller's clock,
 * so a test can expire a lease without waiting.
 */
export interface LeaseStore {
  /**
   * Takes the lease when it is free or expired, or renews it when `holder` already has it,
   * until now + ttlMs. False when another holder's lease is still live (or won the race).
   */
  acquireLease(name: string, holder: string, ttlMs: number, now: Date): Promise<boolean>;
  /** Gives the lease up when `holder` has it (so the next process need not wait for expiry). */
  releaseLease(name: string, holder: string): Promise<void>;
  readLease(name: string): Promise<Lease | null>;
}
