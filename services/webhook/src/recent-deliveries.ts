import { createHash } from 'node:crypto';

export interface RecentDeliveriesOptions {
  /** How long a delivery id is remembered. GitHub's own redeliveries of one delivery keep its id. */
  ttlMs: number;
  /** At most this many ids are remembered; the oldest is forgotten first. */
  maxIds: number;
  now: () => number;
}

export const DEFAULT_RECENT_DELIVERIES: RecentDeliveriesOptions = { ttlMs: 10 * 60_000, maxIds: 10_000, now: Date.now };

/** The first copy of a delivery id: publish it, then settle whether it was stored. */
export interface FirstCopy {
  settle(stored: boolean): void;
}

/** A claim on a delivery id: the first copy, or a later one and whether the first was stored. */
export type DeliveryClaim = ({ first: true } & FirstCopy) | { first: false; stored: Promise<boolean> };

interface Remembered {
  expires: number;
  /** Whether the copy that claimed the id was stored; pending while it is being published. */
  stored: Promise<boolean>;
}

/**
 * X-GitHub-Delivery ids of deliveries published recently, in this process only: a delivery
 * redelivered (by GitHub, or replayed by anyone holding a signed body) within the window is
 * answered without publishing it again. Memory is bounded by maxIds; long ids are kept as their
 * SHA-256. Across processes and beyond the window, idempotence lives in the indexer (events are
 * triggers: it converges to GitHub's state), so this only saves work and narrows replays.
 */
export class RecentDeliveries {
  private readonly options: RecentDeliveriesOptions;
  /** id -> what is remembered of it; Map keeps insertion order, which is expiry order (one TTL). */
  private readonly ids = new Map<string, Remembered>();

  constructor(options: Partial<RecentDeliveriesOptions> = {}) {
    this.options = { ...DEFAULT_RECENT_DELIVERIES, ...options };
    if (!(this.options.ttlMs > 0) || !Number.isInteger(this.options.maxIds) || this.options.maxIds < 1) throw new Error('RecentDeliveries needs ttlMs > 0 and maxIds >= 1');
  }

  /**
   * Claims a delivery id. The first copy within the window publishes it and settles the claim:
   * stored, or not (then the id is forgotten, so the sender's retry is not taken for a
   * duplicate). A copy arriving meanwhile learns whether the first one was stored.
   */
  claim(deliveryId: string): DeliveryClaim {
    const now = this.options.now();
    this.forgetExpired(now);
    const key = keyOf(deliveryId);
    const known = this.ids.get(key);
    if (known) return { first: false, stored: known.stored };
    let resolve!: (stored: boolean) => void;
    const remembered: Remembered = { expires: now + this.options.ttlMs, stored: new Promise<boolean>((r) => (resolve = r)) };
    this.ids.set(key, remembered);
    while (this.ids.size > this.options.maxIds) this.ids.delete(this.ids.keys().next().value as string);
    return {
      first: true,
      settle: (stored) => {
        if (!stored && this.ids.get(key) === remembered) this.ids.delete(key);
        resolve(stored);
      },
    };
  }

  /**
   * The claim to publish a delivery under, or null when a copy of it was stored. A copy being
   * published now is waited for: answered a duplicate only once that copy is stored, and
   * published itself when that copy was not.
   */
  async firstCopy(deliveryId: string): Promise<FirstCopy | null> {
    for (;;) {
      const claim = this.claim(deliveryId);
      if (claim.first) return claim;
      if (await claim.stored) return null;
    }
  }

  get size(): number {
    return this.ids.size;
  }

  private forgetExpired(now: number): void {
    for (const [key, { expires }] of this.ids) {
      if (expires > now) break;
      this.ids.delete(key);
    }
  }
}

function keyOf(deliveryId: string): string {
  return deliveryId.length <= 64 ? deliveryId : `sha256:${createHash('sha256').update(deliveryId).digest('hex')}`;
}
