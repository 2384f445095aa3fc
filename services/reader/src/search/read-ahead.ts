import type { FileContent } from '@gitdex/ports';

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A read in flight settled into a value, so a caller that stops early never leaves an unhandled rejection. */
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/**
 * The contents of each batch in turn, the next batch already being read while the caller
 * verifies this one, so the index's fetch and the verification overlap. A failed read is
 * thrown when its batch is reached.
 */
export async function* readAhead<T>(batches: readonly T[][], read: (batch: T[]) => Promise<FileContent[]>): AsyncGenerator<[T[], FileContent[]]> {
  let next = batches[0] !== undefined ? settle(read(batches[0])) : null;
  for (let i = 0; next !== null; i += 1) {
    const current: Settled<FileContent[]> = await next;
    const following = batches[i + 1];
    next = following !== undefined ? settle(read(following)) : null;
    if (!current.ok) throw current.error;
    yield [batches[i] as T[], current.value];
  }
}

/**
 * The pages of a paged read (each after the last item of the one before), the next page
 * already asked for while the caller works on this one. A page shorter than `pageSize` is
 * the last. A failed read is thrown when its page is reached.
 */
export async function* pagesAhead<T>(read: (after: T | null) => Promise<T[]>, pageSize: number): AsyncGenerator<T[]> {
  let next: Promise<Settled<T[]>> | null = settle(read(null));
  while (next !== null) {
    const current: Settled<T[]> = await next;
    if (!current.ok) throw current.error;
    const page: T[] = current.value;
    next = page.length >= pageSize ? settle(read(page[page.length - 1] as T)) : null;
    yield page;
  }
}
