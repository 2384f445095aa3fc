import type { IndexStore } from '@gitdex/ports';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps } from '../../../src/deps';
import { composeIndex } from '../../../src/index-layers/compose';
import { listFiles } from '../../../src/tools/list-files';
import { readFile } from '../../../src/tools/read-file';
import { fileDocument, commitSha, pushCommit, repositoryDocument, seedRepository } from '../../support/documents';

const REF = 'refs/heads/main';
const FILES = { 'README.md': '# A\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/lib/c.ts': 'c\n' };
const READS = ['getRepository', 'findRepositoryByName', 'listRepositories', 'getRefState', 'listRefStates', 'lookupForRead', 'getFile', 'listFiles', 'listFolders', 'findRetired'] as const;

/**
 * A reader on the real SQLite adapter behind the read cache, with a clock the test moves
 * (each read "seconds after the last", as an agent's are), and every index read counted.
 */
async function coldReader() {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  await seedRepository(index, { id: 1, fullName: 'octo/api', files: FILES });
  const spies = READS.map((method) => [method, jest.spyOn(index, method)] as const);
  let now = 0;
  const deps = resolveDeps({ index: composeIndex(index, { now: () => now }) });
  /** Index reads since the last call, by method. */
  const made = () => {
    const counts: Record<string, number> = {};
    for (const [method, spy] of spies) {
      if (spy.mock.calls.length > 0) counts[method] = spy.mock.calls.length;
      spy.mockClear();
    }
    return counts;
  };
  const later = () => (now += 5_000);
  return { index, deps, made, later };
}

/** What a reader answers that has neither cache nor guesses: the lookups one by one. */
const unaided = (index: IndexStore) => resolveDeps({ index });

describe('a cold read', () => {
  it('once the name was read before, costs one round trip, and answers what the lookups one by one answer', async () => {
    const { index, deps, made, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    expect(made()).toEqual({ findRepositoryByName: 1, listRefStates: 1, getFile: 1 });
    for (const input of [
      { repository: 'octo/api', path: 'src/a.ts' },
      { repository: 'octo/api', path: 'src/lib/c.ts', ref: 'main' },
      { repository: 'octo/api', path: 'src/b.ts', start_line: 1, end_line: 1 },
      { repository: 'https://github.com/octo/api', path: 'src/a.ts', offset: 0, max_bytes: 1 },
    ]) {
      later();
      const answer = await readFile(deps, null, input);
      expect(made()).toEqual({ lookupForRead: 1 });
      expect(answer).toEqual(await readFile(unaided(index), null, input));
      made();
    }
  });

  it('a read within the reuse window asks only for the file', async () => {
    const { deps, made } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    made();
    await readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts' });
    expect(made()).toEqual({ getFile: 1 });
  });

  it('cold reads at the same time share the lookups in flight, each asking for its file', async () => {
    const { index, deps, made, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    later();
    made();
    const paths = ['src/a.ts', 'src/b.ts', 'src/lib/c.ts'];
    const answers = await Promise.all(paths.map((path) => readFile(deps, null, { repository: 'octo/api', path })));
    expect(made()).toEqual({ lookupForRead: 1, getFile: 2 });
    for (const [i, path] of paths.entries()) expect(answers[i]).toEqual(await readFile(unaided(index), null, { repository: 'octo/api', path }));
  });

  it('a failed lookup is not kept: the next read asks again', async () => {
    const { index, deps, made, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    later();
    made();
    jest.spyOn(index, 'lookupForRead').mockRejectedValueOnce(new Error('engine down'));
    await expect(readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts' })).rejects.toThrow('engine down');
    expect((await readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts' })).structured.content).toBe('a');
    expect(made()).toEqual({ lookupForRead: 2 });
  });

  it('sees a flip at once, and never a version still being indexed', async () => {
    const { index, deps, made, later } = await coldReader();
    const read = async (path: string) => (await readFile(deps, null, { repository: 'octo/api', path })).structured.content;
    expect(await read('src/a.ts')).toBe('a');
    made();
    // The next generation written (and searchable) but not flipped to: not shown.
    await index.writeFiles([{ type: 'put', document: fileDocument({ repositoryId: 1, ref: REF, path: 'src/a.ts', spec: 'next\n', commit: commitSha('next'), generation: 2 }) }]);
    later();
    expect(await read('src/a.ts')).toBe('a');
    expect(made()).toEqual({ lookupForRead: 1 });
    await index.discardAfter({ repositoryId: 1, ref: REF, generation: 1 });
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/a.ts': 'changed\n' }, remove: ['src/b.ts'] });
    later();
    made();
    expect(await read('src/a.ts')).toBe('changed');
    expect(made()).toEqual({ lookupForRead: 1 });
    later();
    await expect(read('src/b.ts')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a repository made private is refused at once, like one never seen', async () => {
    const { index, deps, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    await index.putRepository(repositoryDocument({ id: 1, fullName: 'octo/api', private: true }));
    later();
    const refused = await readFile(deps, null, { repository: 'octo/api', path: 'README.md' }).catch((error: unknown) => error);
    const unseen = await readFile(unaided(index), null, { repository: 'octo/api', path: 'README.md' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'REPOSITORY_NOT_FOUND' });
    expect(refused).toEqual(unseen);
  });

  it('a name that now stands for another repository reads that one', async () => {
    const { index, deps, made, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    await index.deleteRepository(1);
    await seedRepository(index, { id: 2, fullName: 'octo/api', files: { 'README.md': '# B\n' } });
    later();
    made();
    expect((await readFile(deps, null, { repository: 'octo/api', path: 'README.md' })).structured.content).toBe('# B');
    // The name's answer came with the lookup and is reused; the guessed id's states were not this repository's.
    expect(made()).toEqual({ lookupForRead: 1, listRefStates: 1, getFile: 1 });
    later();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    expect(made()).toEqual({ lookupForRead: 1 });
  });

  it('a ref the guess missed (a tag) still reads right, asking getFile', async () => {
    const { index, deps, made, later } = await coldReader();
    await seedRepository(index, { id: 1, fullName: 'octo/api', ref: 'refs/tags/v1', files: { 'src/a.ts': 'tagged\n' } });
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    later();
    made();
    expect((await readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts', ref: 'v1' })).structured.content).toBe('tagged');
    expect(made()).toEqual({ lookupForRead: 1, getFile: 1 });
    later();
    expect((await readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts', ref: 'v1' })).structured.content).toBe('tagged');
    expect(made()).toEqual({ lookupForRead: 1 });
  });

  it('list_files looks up the repository and its ref states in one round trip', async () => {
    const { index, deps, made, later } = await coldReader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    later();
    made();
    const answer = await listFiles(deps, null, { repository: 'octo/api', folder: 'src' });
    const calls = made();
    expect(calls).toMatchObject({ lookupForRead: 1 });
    expect(calls).not.toHaveProperty('findRepositoryByName');
    expect(calls).not.toHaveProperty('listRefStates');
    expect(answer).toEqual(await listFiles(unaided(index), null, { repository: 'octo/api', folder: 'src' }));
    made();
    // The next page, later: the cursor's repository and ref are checked against one lookup too.
    const cursor = (await listFiles(deps, null, { repository: 'octo/api', folder: 'src', limit: 1 })).structured.next_cursor as string;
    later();
    made();
    const next = await listFiles(deps, null, { repository: 'octo/api', cursor });
    const paging = made();
    expect(paging).toMatchObject({ lookupForRead: 1 });
    expect(paging).not.toHaveProperty('findRepositoryByName');
    expect(paging).not.toHaveProperty('listRefStates');
    expect(next).toEqual(await listFiles(unaided(index), null, { repository: 'octo/api', cursor }));
  });

  it("list_files asks for a first page's folders and files beside the check that the folder exists, not after it", async () => {
    const { index } = await coldReader();
    const started: string[] = [];
    let finished = 0;
    // The adapter's own methods (coldReader already spies on these), each held until the test lets them answer.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const delayed =
      <A extends unknown[], R>(method: string, original: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        started.push(`${method} after ${finished} finished`);
        await held;
        finished += 1;
        return original(...args);
      };
    jest.spyOn(index, 'listFiles').mockImplementation(delayed('listFiles', SqliteIndexStore.prototype.listFiles.bind(index)));
    jest.spyOn(index, 'listFolders').mockImplementation(delayed('listFolders', SqliteIndexStore.prototype.listFolders.bind(index)));
    const answering = listFiles(unaided(index), null, { repository: 'octo/api', folder: 'src', limit: 2 });
    // Whatever the listing asks before an answer comes, it has asked once the event loop went
    // round 50 times with no new call; only then may the calls answer.
    for (let quiet = 0, seen = 0; quiet < 50; seen = started.length) {
      await new Promise((resolve) => setImmediate(resolve));
      quiet = started.length === seen ? quiet + 1 : 0;
    }
    release();
    const answer = await answering;
    // The folder check, the folders and the files: all three asked before any answered.
    expect(started).toEqual(['listFiles after 0 finished', 'listFolders after 0 finished', 'listFiles after 0 finished']);
    jest.restoreAllMocks();
    // Folders first, then as many files as the page has room for: what asking for them one by one answers.
    expect(answer.structured.entries.map((e) => e.path)).toEqual(['src/lib', 'src/a.ts']);
    expect(answer.structured.total_entries).toBe(3);
  });
});
