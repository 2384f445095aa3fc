export interface PromiseLruOptions {
  /** Most answers kept. */
  maxEntries: number;
  /** Most rough bytes (see roughSize) the kept answers may add up to. */
  maxBytes: number;
}

interface Entry<V> {
  value: Promise<V>;
  /** 0 until the answer arrives and is weighed. */
  bytes: number;
}

/**
 * Answers by key, the least recently used dropped first, bounded in count and in rough
 * size. The promise is kept from the first call, so concurrent callers share one load; it
 * is weighed when it resolves, and dropped if it fails, so the next call asks again.
 */
export class PromiseLru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(
    private readonly options: PromiseLruOptions,
    private readonly weigh: (value: V) => number = roughSize,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The answer kept under `key` (marked used), or undefined: nothing is loaded. */
  peek(key: string): Promise<V> | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit?.value;
  }

  /** The answer kept under `key`, or `load()`'s, kept for the next call. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.peek(key);
    if (hit) return hit;
    const entry: Entry<V> = { value: load(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = this.weigh(value);
        // An answer larger than the whole budget is not kept, rather than pushing out everything else.
        if (entry.bytes > this.options.maxBytes) {
          this.entries.delete(key);
          return;
        }
        this.bytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.value;
  }

  private evict(): void {
    while (this.entries.size > this.options.maxEntries || (this.bytes > this.options.maxBytes && this.entries.size > 0)) {
      const [key, oldest] = this.entries.entries().next().value as [string, Entry<V>];
      this.entries.delete(key);
      this.bytes -= oldest.bytes;
    }
  }
}

/**
 * About how many bytes a plain value (index answers: objects, arrays, strings, numbers)
 * holds in memory: two per string character plus a small fixed cost per value. Rough on
 * purpose: it bounds a cache, it is not an accounting of the heap.
 */
export function roughSize(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (Array.isArray(value)) {
    let bytes = 16;
    for (const item of value) bytes += 8 + roughSize(item);
    return bytes;
  }
  if (value !== null && typeof value === 'object') {
    let bytes = 16;
    for (const key in value) bytes += 8 + roughSize((value as Record<string, unknown>)[key]);
    return bytes;
  }
  return 8;
}
