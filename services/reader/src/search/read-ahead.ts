import type { FileContent } from '@gitdex/ports';

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/**
 * The contents of each batch in turn, the next batch already being read while the caller
 * verifies this one, so the index's fetch and the verification overlap. A failed read is
 * thrown when its batch is reached; a read still in flight when the caller stops early is
 * settled into a value, so it never becomes an unhandled rejection.
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
