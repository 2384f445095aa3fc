/** A lookup kept for the reuse window. */
export interface Lookup {
  /** When it was asked: it is reused until `at + ttl`. */
  at: number;
  value: Promise<unknown>;
  /** How to ask it again. */
  fetch: () => Promise<unknown>;
  refreshing: boolean;
}

/** Lookups kept at most; past that all are forgotten at once (each is asked again on its next use). */
const MOST_LOOKUPS = 10_000;

/**
 * Answers of lookups by key, reused for `ttlMs` from when they were asked, so a burst of calls
 * costs the index one lookup each; past half that time a use starts a fresh lookup in the
 * background, so steady traffic never waits for one. A failed lookup is not kept. `onUse`
 * hears of every use (keep-fresh.ts). Reads its clock from `now` (tests move it).
 */
export class ReuseWindow {
  private readonly lookups = new Map<string, Lookup>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number,
    private readonly onUse: (key: string, at: number) => void = () => undefined,
  ) {}

  /** The answer kept under `key` within the window, else `fetch()`'s, kept from now. */
  fresh<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const at = this.now();
    const hit = this.lookups.get(key);
    if (hit && at - hit.at < this.ttlMs) {
      this.onUse(key, at);
      this.refreshIfDue(key, at);
      return hit.value as Promise<T>;
    }
    const value = fetch();
    this.keep(key, { at, value, fetch, refreshing: false });
    return value;
  }

  /** Whether `key` is still within its window (without starting a refresh). */
  within(key: string): boolean {
    const hit = this.lookups.get(key);
    return hit !== undefined && this.now() - hit.at < this.ttlMs;
  }

  /** A lookup asked at `at` as part of another request, kept as if it had been made on its own (and shared while in flight). */
  seed(key: string, at: number, value: Promise<unknown>, fetch: () => Promise<unknown>): void {
    const hit = this.lookups.get(key);
    if (hit && hit.at > at) return;
    this.keep(key, { at, value, fetch, refreshing: false });
  }

  /** Looks `key` up again in the background when past half its window; the answer in hand serves until the fresh one arrives. */
  refreshIfDue(key: string, at: number): void {
    const hit = this.lookups.get(key);
    if (!hit || at - hit.at < this.ttlMs / 2 || hit.refreshing) return;
    hit.refreshing = true;
    const next: Lookup = { at, value: hit.fetch(), fetch: hit.fetch, refreshing: false };
    next.value.then(
      () => {
        if (this.lookups.get(key) === hit) this.lookups.set(key, next);
      },
      // A failed refresh may be tried again.
      () => {
        hit.refreshing = false;
      },
    );
  }

  private keep(key: string, entry: Lookup): void {
    if (this.lookups.size >= MOST_LOOKUPS) this.lookups.clear();
    this.lookups.set(key, entry);
    // A failed lookup is not kept: the next call asks the index again.
    entry.value.catch(() => {
      if (this.lookups.get(key) === entry) this.lookups.delete(key);
    });
    this.onUse(key, entry.at);
  }
}
