import type { estypes } from '@elastic/elasticsearch';

/** The first value of a doc-value field of a hit (`docvalue_fields`), or undefined when it has none. */
export function value<T>(hit: estypes.SearchHit<unknown>, field: string): T | undefined {
  return (hit.fields?.[field] as T[] | undefined)?.[0];
}

/** The first value of a doc-value field every hit of the search has (a field each of its documents is written with). */
export function valueOfEvery<T>(hit: estypes.SearchHit<unknown>, field: string): T {
  return value<T>(hit, field) as T;
}
