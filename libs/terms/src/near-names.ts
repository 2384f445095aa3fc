import { editDistances } from './edit-distance';

/**
 * The names a "did you mean" offers for `asked`, best first: the same name in another case, then
 * fewer edits (a name containing the asked one counts at most its extra length), then a name that
 * starts with it, then the shorter name. Names farther than half the asked name's length (at least
 * 2 edits) are left out unless they contain it, and so is the asked name itself. The reader and
 * the SQLite index rank with this one function, so the index keeps exactly what the reader shows.
 */
export function nearNames(asked: string, names: Iterable<string>): string[] {
  const lower = asked.toLowerCase();
  const scored: { name: string; caseOnly: number; edits: number; prefix: number }[] = [];
  for (const name of new Set(names)) {
    if (name === asked) continue;
    const other = name.toLowerCase();
    const edits = editDistances(lower, other).full;
    const contains = other.includes(lower);
    if (!contains && edits > maxNearEdits(lower.length)) continue;
    scored.push({ name, caseOnly: other === lower ? 0 : 1, edits: contains ? Math.min(edits, other.length - lower.length) : edits, prefix: other.startsWith(lower) ? 0 : 1 });
  }
  scored.sort((a, b) => a.caseOnly - b.caseOnly || a.edits - b.edits || a.prefix - b.prefix || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.map((s) => s.name);
}

/** The most edits nearNames allows a name of `length` characters that does not contain the asked one. */
export function maxNearEdits(length: number): number {
  return Math.max(2, Math.floor(length / 2));
}

/** Candidates read per source: enough for the few names shown, few enough to stay cheap. */
export const NAMES_PER_SOURCE = 50;

/** `chars` cut into `parts` pieces of near-equal length. */
function piecesOf(chars: readonly string[], parts: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < parts; i += 1) pieces.push(chars.slice(Math.round((i * chars.length) / parts), Math.round(((i + 1) * chars.length) / parts)).join(''));
  return pieces;
}

/**
 * The pieces of the asked name to look up for names a few edits away. A name one edit away
 * keeps one half of the asked name whole, two edits away (or one swap of neighbours) one third
 * (pigeonhole), wherever the edits are: each piece of at least three characters is a trigram
 * phrase query, cheap however many names the index holds, unlike ranking every name sharing a
 * trigram (43 ms p50 on 138,053 names).
 */
export function nearPieces(folded: string): string[] {
  const chars = Array.from(folded);
  const pieces = new Set<string>();
  // Thirds of three characters match thousands of names each (1,398 p50 on 138,053): a third is
  // looked up from four characters on, a half from three.
  for (const [parts, least] of [
    [2, 3],
    [3, 4],
  ] as const)
    for (const piece of piecesOf(chars, parts)) if (Array.from(piece).length >= least) pieces.add(piece);
  return [...pieces];
}
