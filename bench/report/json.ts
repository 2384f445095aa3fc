import type { Results } from './model';

/** results.json: everything, with raw samples (non-finite numbers become null). */
export function renderJson(results: Results): string {
  return `${JSON.stringify(results, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`;
}
