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
  /** The pass that used it last, if any (see get). */
  pass: Pass | undefined;
}

/**
 * One run over many keys (a search reading its candidates): any object, compared by
 * identity. An entry a pass kept is never pushed out by a later entry of the same pass.
 */
export type Pass = object;

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

  /** The answer kept under `key` (marked used, by `pass` if given), or undefined: nothing is loaded. */
  peek(key: string, pass?: Pass): Promise<V> | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      hit.pass = pass;
    }
    return hit?.value;
  }

  /**
   * The answer kept under `key`, or `load()`'s, kept for the next call. With a `pass`, a
   * new answer that would push out one the same pass kept is not kept instead: a pass over
   * more than the budget holds (a search of a regex over thousands of files) then keeps its
   * first answers, and the same pass again finds them, where least-recently-used would push
   * out each answer just before its next use and keep none that is asked again.
   */
  get(key: string, load: () => Promise<V>, pass?: Pass): Promise<V> {
    const hit = this.peek(key, pass);
    if (hit) return hit;
    const entry: Entry<V> = { value: load(), bytes: 0, pass };
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
        this.evict(key, entry);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict(key, entry);
    return entry.value;
  }

  /** Drops the least recently used entries until within bounds; the newcomer instead when the next to drop is of its pass. */
  private evict(newcomerKey: string, newcomer: Entry<V>): void {
    let spare: Pass | undefined = newcomer.pass;
    while (this.entries.size > this.options.maxEntries || (this.bytes > this.options.maxBytes && this.entries.size > 0)) {
      const [key, oldest] = this.entries.entries().next().value as [string, Entry<V>];
      if (spare !== undefined && oldest.pass === spare && oldest !== newcomer && this.entries.get(newcomerKey) === newcomer) {
        this.entries.delete(newcomerKey);
        this.bytes -= newcomer.bytes;
        spare = undefined;
        continue;
      }
      this.entries.delete(key);
      this.bytes -= oldest.bytes;
    }
  }
}

/**
 * About how many bytes a plain value (index answers: objects, arrays, strings, numbers)
 * holds in memory: a string's characters at the width V8 stores them (one byte each for
 * ASCII text, most source code; two otherwise) plus a small fixed cost per value. Rough on
 * purpose: it bounds a cache, it is not an accounting of the heap.
 */
export function roughSize(value: unknown): number {
  if (typeof value === 'string') return 16 + (Buffer.byteLength(value, 'utf8') === value.length ? 1 : 2) * value.length;
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
