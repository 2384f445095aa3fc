import Database from 'better-sqlite3';
import { prepareContentStatements } from '../src/index-store/content-search';
import { ensureSchema } from '../src/index-store/schema';

/** What SQLite plans for a statement, as the details of EXPLAIN QUERY PLAN. */
function planOf(db: Database.Database, source: string): string {
  const params = { s: 1, g: 1, after: '', language: null, includeGenerated: 0, limit: 10, match: 'abcde', paths: '[]' };
  const used = Object.fromEntries(Object.entries(params).filter(([name]) => source.includes(`@${name}`)));
  return db
    .prepare(`EXPLAIN QUERY PLAN ${source}`)
    .all(used)
    .map((row) => (row as { detail: string }).detail)
    .join(' | ');
}

describe('the content search statements of SQLite', () => {
  test('count and list the files that could not be searched from their partial index, not from every file of the scope', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const st = prepareContentStatements(db);
    // Every search counts them: a scan of the scope with each file's JSON summary cost 166 ms on 54,746 files.
    expect(planOf(db, st.countUnsearchable.source)).toMatch(/USING INDEX files_unsearchable/);
    expect(planOf(db, st.unsearchable.source)).toMatch(/USING INDEX files_unsearchable/);
    db.close();
  });
});
