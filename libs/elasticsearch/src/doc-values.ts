import type { estypes } from '@elastic/elasticsearch';

/** The first value of a doc-value field of a hit (`docvalue_fields`), or undefined when it has none. */
export function value<T>(hit: estypes.SearchHit<unknown>, field: string): T | undefined {
  return (hit.fields?.[field] as T[] | undefined)?.[0];
}
