import { createHash } from 'node:crypto';

export interface RecentDeliveriesOptions {
  /** How long a delivery id is remembered. GitHub's own redeliveries of one delivery keep its id. */
  ttlMs: number;
  /** At most this many ids are remembered; the oldest is forgotten first. */
  maxIds: number;
  now: () => number;
}

export const DEFAULT_RECENT_DELIVERIES: RecentDeliveriesOptions = { ttlMs: 10 * 60_000, maxIds: 10_000, now: Date.now };

/**
 * X-GitHub-Delivery ids of deliveries published recently, in this process only: a delivery
 * redelivered (by GitHub, or replayed by anyone holding a signed body) within the window is
 * answered without publishing it again. Memory is bounded by maxIds; long ids are kept as their
 * SHA-256. Across processes and beyond the window, idempotence lives in the indexer (events are
 * triggers: it converges to GitHub's state), so this only saves work and narrows replays.
 */
export class RecentDeliveries {
  private readonly options: RecentDeliveriesOptions;
  /** id -> time it expires; Map keeps insertion order, which is expiry order (one TTL). */
  private readonly ids = new Map<string, number>();

  constructor(options: Partial<RecentDeliveriesOptions> = {}) {
    this.options = { ...DEFAULT_RECENT_DELIVERIES, ...options };
    if (!(this.options.ttlMs > 0) || !Number.isInteger(this.options.maxIds) || this.options.maxIds < 1) throw new Error('RecentDeliveries needs ttlMs > 0 and maxIds >= 1');
  }

  /**
   * Claims a delivery id: true the first time within the window (publish it), false for a
   * duplicate. A claim is taken before publishing, so two concurrent copies publish once;
   * release it when publishing failed, so the sender's retry is not taken for a duplicate.
   */
  claim(deliveryId: string): boolean {
    const now = this.options.now();
    this.forgetExpired(now);
    const key = keyOf(deliveryId);
    if (this.ids.has(key)) return false;
    this.ids.set(key, now + this.options.ttlMs);
    while (this.ids.size > this.options.maxIds) this.ids.delete(this.ids.keys().next().value as string);
    return true;
  }

  release(deliveryId: string): void {
    this.ids.delete(keyOf(deliveryId));
  }

  get size(): number {
    return this.ids.size;
  }

  private forgetExpired(now: number): void {
    for (const [key, expires] of this.ids) {
      if (expires > now) break;
      this.ids.delete(key);
    }
  }
}

function keyOf(deliveryId: string): string {
  return deliveryId.length <= 64 ? deliveryId : `sha256:${createHash('sha256').update(deliveryId).digest('hex')}`;
}
