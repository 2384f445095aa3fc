import type { Database, Statement } from 'better-sqlite3';
import { maxNearEdits, NAMES_PER_SOURCE, nearNames } from '@gitdex/terms';

/**
 * The distinct definition names of the index, for "did you mean" (docs/design/symbols-storage.md,
 * "Did you mean"): `symbol_name_list` holds each name once with its lower case (`folded`,
 * indexed: equal and prefix by range), `symbol_name_grams` the trigrams of the lower case
 * (FTS5 `trigram`, case-sensitive over the already folded text so the fold is JavaScript's, the
 * one the reader ranks with; contentless: the text is the list's). A name is added with the
 * first blob that defines it and never removed: a candidate is offered only once a visible file
 * of the caller's snapshots defines it (symbol-reads.ts), so a name whose blobs are gone is
 * read and dropped, never shown. Kept in the same statements (and so the same transaction) as
 * the blob's `symbol_names` rows.
 */
export const NAME_LIST_DDL = `
CREATE TABLE IF NOT EXISTS symbol_name_list (
  name_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  folded TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS symbol_name_list_by_folded ON symbol_name_list (folded);
CREATE VIRTUAL TABLE IF NOT EXISTS symbol_name_grams USING fts5(
  folded, content='', tokenize='trigram case_sensitive 1'
);
`;

/** Longer than any name: the open end of "at least as long". */
const MAX_LENGTH = 1_000_000;

/** Above every code point: `folded < head || LAST` bounds the names starting with `head`. */
const LAST = '\u{10FFFF}';

export interface NameList {
  /** Adds the names not listed yet. */
  add(names: Iterable<string>): void;
  /**
   * Names near `asked` ignoring case, from the sources below (the same name in any case, names
   * within a few edits, names containing it, names starting with its first three characters,
   * names holding two of its thirds, a short name with a character left out; NAMES_PER_SOURCE a
   * source), nearest first as the reader ranks them (closestNames), without
   * those it would drop; not yet checked for visibility.
   */
  candidates(asked: string): string[];
}

/** An FTS5 phrase: the text quoted, its quotes doubled. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
/**
 * FTS5 reads its query as a C string, so a NUL ends it ("unterminated string"). No stored name
 * holds one (names come from parsed source text), so a piece that does matches nothing.
 */
const searchable = (text: string) => !text.includes('\u0000');

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

/**
 * Pairs of the asked name's thirds, for names one edit away: such a name keeps two of the three
 * thirds whole, so the pair is a selective query where a third alone matches thousands of names
 * and its nearest lengths may leave the one sought behind (`loadIterator` for `loadItterator`,
 * among names holding `load` or `ator`). Only thirds of at least three characters (a trigram).
 */
function nearPairs(folded: string): [string, string][] {
  const thirds = piecesOf(Array.from(folded), 3);
  const pairs: [string, string][] = [];
  for (let i = 0; i < thirds.length; i += 1)
    for (let j = i + 1; j < thirds.length; j += 1) {
      const [a, b] = [thirds[i] as string, thirds[j] as string];
      if (Array.from(a).length >= 3 && Array.from(b).length >= 3) pairs.push([a, b]);
    }
  return pairs;
}

/** Names up to this long are also looked up with each of their characters left out, in the index of folded names. */
const DELETIONS_UP_TO = 8;

/**
 * The asked name with one character left out, each place: a name the asked one has one
 * character too many for (a letter doubled, `buus` for `bus`). A short name may keep no piece of
 * three characters whole, so no trigram query finds it; these are equality lookups.
 */
function oneLeftOut(folded: string): string[] {
  const chars = Array.from(folded);
  return [...new Set(chars.map((_, i) => [...chars.slice(0, i), ...chars.slice(i + 1)].join('')))];
}

export function prepareNameList(db: Database): NameList {
  const insert = db.prepare<[string, string]>(`INSERT INTO symbol_name_list (name, folded) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`);
  const insertGrams = db.prepare<[number | bigint, string]>(`INSERT INTO symbol_name_grams (rowid, folded) VALUES (?, ?)`);
  const equal = db.prepare<[string], string>(`SELECT name FROM symbol_name_list WHERE folded = ? ORDER BY name`).pluck();
  const startingWith = db
    .prepare<Record<string, unknown>, string>(
      `SELECT name FROM symbol_name_list WHERE folded >= @head AND folded < @head || '${LAST}' AND abs(length(folded) - @length) <= @edits
      ORDER BY folded LIMIT @limit`,
    )
    .pluck();
  const fromGrams = db
    .prepare(
      `SELECT l.name FROM symbol_name_grams g JOIN symbol_name_list l ON l.name_id = g.rowid
      WHERE symbol_name_grams MATCH @phrase AND length(l.folded) BETWEEN @shortest AND @longest
      ORDER BY abs(length(l.folded) - @length), l.folded LIMIT @limit`,
    )
    .pluck() as Statement<Record<string, unknown>, string>;
  const grams = (text: string, length: number, shortest: number, longest: number) =>
    searchable(text) ? fromGrams.all({ phrase: phrase(text), length, shortest, longest, limit: NAMES_PER_SOURCE }) : [];
  // Under three characters there is no trigram: the narrow index of folded names is read in
  // order, stopping at the limit (a name that short is rarely a typo of anything).
  const containingShort = db.prepare<Record<string, unknown>, string>(`SELECT name FROM symbol_name_list INDEXED BY symbol_name_list_by_folded WHERE instr(folded, @folded) > 0 LIMIT @limit`).pluck();

  return {
    add: (names) => {
      for (const name of names) {
        const folded = name.toLowerCase();
        const added = insert.run(name, folded);
        if (added.changes > 0) insertGrams.run(added.lastInsertRowid, folded);
      }
    },
    candidates: (asked) => {
      const folded = asked.toLowerCase();
      if (folded === '') return [];
      const chars = Array.from(folded);
      const length = chars.length;
      const limit = NAMES_PER_SOURCE;
      const found = new Set<string>(equal.all(folded));
      const short = length < 3;
      const edits = maxNearEdits(length);
      if (!short) for (const piece of nearPieces(folded)) for (const name of grams(piece, length, length - edits, length + edits)) found.add(name);
      for (const [a, b] of nearPairs(folded).filter((pair) => pair.every(searchable)))
        for (const name of fromGrams.all({ phrase: `${phrase(a)} AND ${phrase(b)}`, length, shortest: length - 2, longest: length + 2, limit })) found.add(name);
      if (length <= DELETIONS_UP_TO) for (const variant of oneLeftOut(folded)) for (const name of equal.all(variant)) found.add(name);
      const contains = short ? containingShort.all({ folded, limit }) : grams(folded, length, length, MAX_LENGTH);
      for (const name of contains) found.add(name);
      for (const name of startingWith.all({ head: chars.slice(0, 3).join(''), length, edits, limit })) found.add(name);
      return nearNames(asked, found);
    },
  };
}

/** Lists the names already stored in `symbol_names`: a file of a layout without the list gains it on open. */
export function buildNameList(db: Database): void {
  const list = prepareNameList(db);
  // Read whole first: better-sqlite3 runs one statement at a time (about 140,000 names of 54,000 files).
  list.add(db.prepare<[], string>(`SELECT DISTINCT name FROM symbol_names`).pluck().all());
}
