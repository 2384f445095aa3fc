import Database from 'better-sqlite3';
import { ensureSchema } from '../src/index-store/schema';
import { prepareSymbolStatements } from '../src/index-store/symbol-reads';
import { LAYERED } from '../src/index-store/visibility';

/** What SQLite plans for a statement, as the details of EXPLAIN QUERY PLAN, in order. */
function planOf(db: Database.Database, source: string): string[] {
  const params = { s: 1, g: 1, us: 2, ug: 1, shadowed: '[]', name: 'x', glob: 'x*', language: null, prefix: null, limit: 10 };
  const used = Object.fromEntries(Object.entries(params).filter(([name]) => source.includes(`@${name}`)));
  return db
    .prepare(`EXPLAIN QUERY PLAN ${source}`)
    .all(used)
    .map((row) => (row as { detail: string }).detail);
}

describe('the find_symbol statements of SQLite', () => {
  test.each([
    ['plain', undefined],
    ['layered', LAYERED],
  ])('start from the rows of the name and look up the files of each blob (%s), never walk every file of the scope', (_label, vis) => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const st = prepareSymbolStatements(db, vis);
    // Walking the scope in path order and probing the name for each file read all 54,000 files of a
    // large ref for any name: 70 ms for a name defined in nine files.
    for (const statement of [st.byName, st.byPattern]) {
      const plan = planOf(db, statement.source);
      expect(plan[0]).toMatch(/^SEARCH n USING PRIMARY KEY \(name/);
      expect(plan[1]).toMatch(/USING INDEX files_by_blob_id \(blob_id=\?\)/);
    }
    db.close();
  });
});
