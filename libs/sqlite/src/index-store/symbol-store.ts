import type { Database } from 'better-sqlite3';
import type { BlobSymbols, SymbolDefinition } from '@gitdex/contracts';
import type { BlobOutline } from '@gitdex/ports';
import type { NameList } from './symbol-name-list';

/**
 * A blob's symbols (docs/design/symbols-storage.md), stored once per blob like its content and
 * released with it:
 * - `blob_symbols`: the outline (status and definitions, JSON), whose names say which rows
 *   below are the blob's (so they are deleted by primary key, with no secondary index to slow
 *   writes). `ref_names` listed the names of layout 7's occurrence rows; it is written empty.
 * - `symbol_names`: one row per (definition name, blob), with that name's definitions: an exact
 *   find_symbol reads the rows of one name and joins the visible files naming the blob.
 *
 * Occurrences are not stored: find_references parses the files that hold a name when asked.
 * Layout 7's `symbol_refs` is dropped when a file of that layout is opened (schema.ts).
 */
export const SYMBOLS_DDL = `
CREATE TABLE IF NOT EXISTS blob_symbols (
  blob_id INTEGER PRIMARY KEY,
  blob_sha TEXT NOT NULL,
  extractor INTEGER NOT NULL,
  language TEXT,
  outline TEXT NOT NULL,
  ref_names TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS blob_symbols_by_sha ON blob_symbols (blob_sha, extractor);
CREATE TABLE IF NOT EXISTS symbol_names (
  name TEXT NOT NULL,
  blob_id INTEGER NOT NULL,
  defs TEXT NOT NULL,
  PRIMARY KEY (name, blob_id)
) WITHOUT ROWID, STRICT;
`;

export interface SymbolWriteStatements {
  /** The extractor version of the blob's stored symbols; undefined when it has none. */
  extractorOf(blobId: number): number | undefined;
  /** Stores the blob's symbols in place of any it had. */
  put(blobId: number, blobSha: string, symbols: BlobSymbols): void;
  remove(blobId: number): void;
  /** Symbols stored for a sha by this extractor and language, in any repository. */
  stored(blobSha: string, extractor: number, language: string | null): BlobSymbols | undefined;
}

function groupByName<T extends { name: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.name);
    if (group) group.push(item);
    else groups.set(item.name, [item]);
  }
  return groups;
}

export function outlineOf(symbols: BlobSymbols): BlobOutline {
  const { occurrences: _occurrences, ...outline } = symbols;
  return outline;
}

export function prepareSymbolWrites(db: Database, nameList: NameList): SymbolWriteStatements {
  const extractorOf = db.prepare<[number], number>(`SELECT extractor FROM blob_symbols WHERE blob_id = ?`).pluck();
  const namesOf = db.prepare<[number], { outline: string }>(`SELECT outline FROM blob_symbols WHERE blob_id = ?`);
  const insertBlob = db.prepare(`INSERT OR REPLACE INTO blob_symbols (blob_id, blob_sha, extractor, language, outline, ref_names) VALUES (?, ?, ?, ?, ?, ?)`);
  const deleteBlob = db.prepare(`DELETE FROM blob_symbols WHERE blob_id = ?`);
  const insertName = db.prepare(`INSERT INTO symbol_names (name, blob_id, defs) VALUES (?, ?, ?)`);
  const deleteName = db.prepare(`DELETE FROM symbol_names WHERE name = ? AND blob_id = ?`);
  const storedBySha = db.prepare<[string, number, string | null], { outline: string }>(`SELECT outline FROM blob_symbols WHERE blob_sha = ? AND extractor = ? AND language IS ? LIMIT 1`);

  const remove = (blobId: number) => {
    const row = namesOf.get(blobId);
    if (!row) return;
    const outline = JSON.parse(row.outline) as BlobOutline;
    for (const name of new Set(outline.definitions.map((d) => d.name))) deleteName.run(name, blobId);
    deleteBlob.run(blobId);
  };

  return {
    extractorOf: (blobId) => extractorOf.get(blobId),
    put: (blobId, blobSha, symbols) => {
      remove(blobId);
      insertBlob.run(blobId, blobSha, symbols.extractor, symbols.language, JSON.stringify(outlineOf(symbols)), '[]');
      const names = groupByName(symbols.definitions);
      for (const [name, defs] of names) insertName.run(name, blobId, JSON.stringify(defs));
      nameList.add(names.keys());
    },
    remove,
    stored: (blobSha, extractor, language) => {
      const row = storedBySha.get(blobSha, extractor, language);
      if (!row) return undefined;
      const outline = JSON.parse(row.outline) as BlobOutline;
      return { ...outline, occurrences: [] };
    },
  };
}

/** Definitions of one name, as stored in a `symbol_names` row. */
export const parseDefinitions = (json: string | null): SymbolDefinition[] => (json === null ? [] : (JSON.parse(json) as SymbolDefinition[]));
