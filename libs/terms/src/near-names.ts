import { editDistances } from './edit-distance';

/**
 * The names a "did you mean" offers for `asked`, best first: the same name in another case, then
 * fewer edits ignoring case (a name containing the asked one counts at most its extra length), then
 * fewer edits in the asked case (`clone` before `Clone` for `cloone`), then a name that starts with
 * it, then the shorter name. Names farther than half the asked name's length (at least
 * 2 edits) are left out unless they contain it, and so is the asked name itself. The reader and
 * the SQLite index rank with this one function, so the index keeps exactly what the reader shows.
 */
export function nearNames(asked: string, names: Iterable<string>): string[] {
  const lower = asked.toLowerCase();
  const scored: { name: string; caseOnly: number; edits: number; casedEdits: number; prefix: number }[] = [];
  for (const name of new Set(names)) {
    if (name === asked) continue;
    const other = name.toLowerCase();
    const edits = editDistances(lower, other).full;
    const contains = other.includes(lower);
    if (!contains && edits > maxNearEdits(lower.length)) continue;
    scored.push({
      name,
      caseOnly: other === lower ? 0 : 1,
      edits: contains ? Math.min(edits, other.length - lower.length) : edits,
      casedEdits: editDistances(asked, name).full,
      prefix: other.startsWith(lower) ? 0 : 1,
    });
  }
  scored.sort(
    (a, b) => a.caseOnly - b.caseOnly || a.edits - b.edits || a.casedEdits - b.casedEdits || a.prefix - b.prefix || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return scored.map((s) => s.name);
}

/** The most edits nearNames allows a name of `length` characters that does not contain the asked one. */
export function maxNearEdits(length: number): number {
  return Math.max(2, Math.floor(length / 2));
}

/** Candidates an index reads per source of "did you mean": enough for the few names shown, few enough to stay cheap. */
export const NAMES_PER_SOURCE = 50;
