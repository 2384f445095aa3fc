import { editDistances } from '../suggest/distance';

/** Names shown when nothing was found: enough to spot a typo, few enough to read. */
export const DID_YOU_MEAN = 5;

/**
 * The names closest to what was asked, best first: the same name in another case, then fewer
 * edits, then a name that starts with it, then the shorter name. Names farther than half the
 * asked name's length (at least 2 edits) are not offered unless they contain it.
 */
export function closestNames(asked: string, names: readonly string[], limit = DID_YOU_MEAN): string[] {
  const lower = asked.toLowerCase();
  const scored: { name: string; caseOnly: number; edits: number; prefix: number }[] = [];
  for (const name of new Set(names)) {
    if (name === asked) continue;
    const other = name.toLowerCase();
    const edits = editDistances(lower, other).full;
    const contains = other.includes(lower);
    if (!contains && edits > Math.max(2, Math.floor(asked.length / 2))) continue;
    scored.push({ name, caseOnly: other === lower ? 0 : 1, edits: contains ? Math.min(edits, other.length - lower.length) : edits, prefix: other.startsWith(lower) ? 0 : 1 });
  }
  scored.sort((a, b) => a.caseOnly - b.caseOnly || a.edits - b.edits || a.prefix - b.prefix || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.name);
}
