import Database from 'better-sqlite3';
import type { BlobSymbols } from '@gitdex/contracts';
import { ensureSchema, INDEX_SCHEMA_VERSION } from '../src/index-store/schema';
import { prepareNameList } from '../src/index-store/symbol-name-list';
import { prepareSymbolWrites } from '../src/index-store/symbol-store';

const symbols: BlobSymbols = {
  extractor: 3,
  language: 'TypeScript',
  status: 'parsed',
  definitions: [{ name: 'Store', kind: 'class', line: 1, endLine: 3, container: null, signature: 'class Store' }],
  occurrences: [{ name: 'Store', line: 1, start: 6, end: 11, role: 'definition' }],
};

// The symbol tables other than the name list's (symbol-names-near.test.ts).
const tables = (db: Database.Database) =>
  db.prepare<[], string>(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'symbol%' AND name NOT GLOB 'symbol_name_[lg]*'`).pluck().all().sort();
const version = (db: Database.Database) => db.prepare<[], string>(`SELECT value FROM index_meta WHERE key = 'schema_version'`).pluck().get();

describe('the symbols layout of SQLite', () => {
  it('stores no occurrences, and a layout 7 file drops its occurrence rows at open, keeping every definition', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    expect(INDEX_SCHEMA_VERSION).toBe(8);
    expect(tables(db)).toEqual(['symbol_names']);
    // What layout 7 wrote: the blob's outline, its occurrence rows, and their names on the blob.
    const writes = prepareSymbolWrites(db, prepareNameList(db));
    writes.put(1, 'a'.repeat(40), symbols);
    db.exec(`CREATE TABLE symbol_refs (name TEXT NOT NULL, blob_id INTEGER NOT NULL, occurrences TEXT NOT NULL, PRIMARY KEY (name, blob_id)) WITHOUT ROWID, STRICT`);
    db.prepare(`INSERT INTO symbol_refs VALUES ('Store', 1, '[[1,6,11,"definition"]]')`).run();
    db.prepare(`UPDATE blob_symbols SET ref_names = '["Store"]'`).run();
    db.prepare(`UPDATE index_meta SET value = '7' WHERE key = 'schema_version'`).run();

    ensureSchema(db);
    expect(version(db)).toBe('8');
    expect(tables(db)).toEqual(['symbol_names']);
    const after = prepareSymbolWrites(db, prepareNameList(db));
    expect(after.stored('a'.repeat(40), 3, 'TypeScript')).toEqual({ ...symbols, occurrences: [] });
    expect(db.prepare(`SELECT name, blob_id FROM symbol_names`).all()).toEqual([{ name: 'Store', blob_id: 1 }]);
    // A blob of layout 7 is released without its dropped rows.
    after.remove(1);
    expect(db.prepare(`SELECT count(*) FROM blob_symbols`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM symbol_names`).pluck().get()).toBe(0);
    db.close();
  });
});
