import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps, type ReaderLimits } from '../../src/deps';
import { searchCode } from '../../src/tools/search-code';
import { pushCommit, seedRepository } from '../support/documents';

const REF = 'refs/heads/main';
const files = (count: number, line: (i: number) => string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`src/f${String(i).padStart(3, '0')}.ts`, `${line(i)}\n`]));

/** A reader on the real SQLite adapter whose contents reads are counted, by path. */
async function reader(limits: Partial<ReaderLimits> = {}) {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  const readContents = jest.spyOn(index, 'readContents');
  const deps = resolveDeps({ index, limits });
  const search = async (query: string, repository: string, extra: Record<string, unknown> = {}) => (await searchCode(deps, null, { query, repository, limit: 100, ...extra })).structured;
  /** Paths whose contents were read from the index since the last look. */
  const read = () => {
    const paths = readContents.mock.calls.flatMap(([, asked]) => asked);
    readContents.mockClear();
    return paths;
  };
  return { index, search, read };
}

/** What a reader with nothing in memory answers. */
async function fresh(index: SqliteIndexStore, query: string, repository: string, limits: Partial<ReaderLimits> = {}, extra: Record<string, unknown> = {}) {
  return (await searchCode(resolveDeps({ index, limits }), null, { query, repository, limit: 100, ...extra })).structured;
}

describe('search_code keeps the contents it verified, by blob', () => {
  it('a second search reads no content it verified before, in any repository holding the same blob, and answers the same', async () => {
    const { index, search, read } = await reader();
    const tree = files(12, (i) => (i % 3 === 0 ? `export const retryAfterMs${i} = ${i};` : `const other${i} = retryAfter(${i});`));
    await seedRepository(index, { id: 1, fullName: 'octo/one', files: tree });
    await seedRepository(index, { id: 2, fullName: 'octo/two', files: tree });
    const first = await search('retryAfter', 'octo/one');
    expect(read()).toHaveLength(12);
    for (const query of ['retryAfter', 'retryAfterMs', 'other1']) {
      expect(await search(query, 'octo/one')).toEqual(await fresh(index, query, 'octo/one'));
      expect(await search(query, 'octo/two')).toEqual(await fresh(index, query, 'octo/two'));
    }
    read();
    expect(await search('retryAfter', 'octo/one')).toEqual(first);
    expect(await search('retryAfter', 'octo/two')).toMatchObject({ total_files: 12 });
    expect(read()).toEqual([]);
  });

  it('after a push, finds the new line and not the removed one: a changed file is another blob', async () => {
    const { index, search } = await reader();
    await seedRepository(index, { id: 1, fullName: 'octo/one', files: { 'src/a.ts': 'const oldName = 1;\n', 'src/b.ts': 'use(oldName);\n' } });
    expect((await search('oldName', 'octo/one')).total_files).toBe(2);
    // The reader holds the bare adapter (no reuse window): the next search reads the new snapshot at once.
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/one@2', put: { 'src/a.ts': 'const newName = 1;\n' } });
    expect((await search('oldName', 'octo/one')).files.map((f) => f.path)).toEqual(['src/b.ts']);
    expect((await search('newName', 'octo/one')).files.map((f) => f.path)).toEqual(['src/a.ts']);
  });

  it('with a budget too small for all of them, answers exactly what a reader with nothing in memory answers, keeps the first ones it read and reads again only the others', async () => {
    const { index, search, read } = await reader({ searchCacheBytes: 600 });
    const tree = files(40, (i) => `value${i} = retryAfter(${i}); // ${'x'.repeat(40)}`);
    await seedRepository(index, { id: 1, fullName: 'octo/one', files: tree });
    for (let round = 0; round < 3; round += 1) {
      expect(await search('retryAfter', 'octo/one')).toEqual(await fresh(index, 'retryAfter', 'octo/one', { searchCacheBytes: 600 }));
    }
    read();
    await search('retryAfter', 'octo/one');
    const again = read();
    // The first files, as many as their weight (16 bytes and one a character: ASCII) fits in
    // 600. Least-recently-used would keep the last ones read instead, each pushed out just
    // before the next search needs it.
    let room = 600;
    const kept = Object.values(tree).findIndex((content) => (room -= 16 + content.length) < 0);
    expect(kept).toBeGreaterThan(3);
    expect(again).toEqual(Object.keys(tree).slice(kept));
  });

  it('stops at the cap of matching files in path order, whichever contents were in memory', async () => {
    const { index, search } = await reader({ searchMaxFiles: 5 });
    await seedRepository(index, { id: 1, fullName: 'octo/one', files: files(30, (i) => `call${i}(retryAfter);`) });
    // Some contents in memory (every third file), the others not: the cap keeps the first five paths all the same.
    await search('call0', 'octo/one');
    await search('call3', 'octo/one', { path: 'src/f0[0-2]*.ts' });
    const capped = await search('retryAfter', 'octo/one');
    expect(capped).toEqual(await fresh(index, 'retryAfter', 'octo/one', { searchMaxFiles: 5 }));
    expect(capped.files.map((f) => f.path)).toEqual(['src/f000.ts', 'src/f001.ts', 'src/f002.ts', 'src/f003.ts', 'src/f004.ts']);
  });
});
