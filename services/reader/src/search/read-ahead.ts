import type { FileContent } from '@gitdex/ports';

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A read in flight settled into a value, so a caller that stops early never leaves an unhandled rejection. */
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/**
 * The answers of a chain of reads (the first asked when iteration starts), each next one
 * already asked for (`next` of the answer before) while the caller works on the one yielded. A failed read is thrown when its turn
 * comes; null from `next` ends the chain.
 */
async function* ahead<T>(first: () => Promise<T> | null, next: (answer: T, index: number) => Promise<T> | null): AsyncGenerator<T> {
  const started = first();
  let pending = started === null ? null : settle(started);
  for (let index = 0; pending !== null; index += 1) {
    const current: Settled<T> = await pending;
    if (!current.ok) throw current.error;
    const following = next(current.value, index);
    pending = following === null ? null : settle(following);
    yield current.value;
  }
}

/**
 * The contents of each batch in turn, the next batch already being read while the caller
 * verifies this one, so the index's fetch and the verification overlap.
 */
export function readAhead<T>(batches: readonly T[][], read: (batch: T[]) => Promise<FileContent[]>): AsyncGenerator<[T[], FileContent[]]> {
  const readBatch = (i: number): Promise<[T[], FileContent[]]> | null => {
    const batch = batches[i];
    return batch === undefined ? null : read(batch).then((contents): [T[], FileContent[]] => [batch, contents]);
  };
  return ahead(
    () => readBatch(0),
    (_, index) => readBatch(index + 1),
  );
}

/**
 * The pages of a paged read (each after the last item of the one before, of the size
 * `sizeOf` gives its index), the next page already asked for while the caller works on this
 * one. A page shorter than its size is the last.
 */
export function pagesAhead<T>(read: (after: T | null, size: number) => Promise<T[]>, sizeOf: (index: number) => number): AsyncGenerator<T[]> {
  return ahead(
    () => read(null, sizeOf(0)),
    (page, index) => (page.length >= sizeOf(index) ? read(page[page.length - 1] as T, sizeOf(index + 1)) : null),
  );
}
