import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps } from '../../../src/deps';
import { composeIndex, type ComposeOptions } from '../../../src/index-layers/compose';
import { readFile } from '../../../src/tools/read-file';
import { suggestPaths } from '../../../src/tools/suggest-paths';
import { listFiles } from '../../../src/tools/list-files';
import { pushCommit, seedRepository, type SeedOptions } from '../../support/documents';
import { loadsAhead } from '../../support/loads-ahead';
import { manualClock } from '../../support/manual-clock';
import { stallingIndex } from '../../support/stalling-index';

const REF = 'refs/heads/main';
const FILES = { 'README.md': '# A\n', 'src/server.ts': 's\n', 'src/client.ts': 'c\n', 'src/lib/helpers.ts': 'h\n', 'test/server.test.ts': 't\n' };
const TTL = 40;

/**
 * A reader on the real SQLite adapter behind the read cache with catalogues on, the calls they
 * answer counted; its clock is the test's (time passes only in `clock.advance`), and `settled`
 * waits until every index call has answered and none follows.
 */
async function reader(catalogue: Partial<NonNullable<ComposeOptions['catalogue']>> = {}, repositories: SeedOptions[] = [{ id: 1, fullName: 'octo/api', files: FILES }]) {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  for (const repository of repositories) await seedRepository(index, repository);
  const asked = jest.spyOn(index, 'suggestCandidates');
  const retiredAsked = jest.spyOn(index, 'findRetired');
  const listed = [jest.spyOn(index, 'listFiles'), jest.spyOn(index, 'listFolders')];
  const loads = loadsAhead();
  const clock = manualClock();
  const watched = stallingIndex(index, Infinity);
  const deps = resolveDeps({
    index: composeIndex(watched.index, {
      metadataTtlMs: TTL,
      now: clock.now,
      repeat: clock.repeat,
      onReadAhead: loads.onReadAhead,
      catalogue: { maxFiles: 1_000, maxTotalFiles: 10_000, everyMs: 0, ...catalogue },
    }),
  });
  /** The catalogue load a call started, ended. */
  const loaded = () => loads.ended('catalogue');
  /** The summaries load that followed it, ended. */
  const summarised = () => loads.ended('summaries');
  const direct = resolveDeps({ index });
  const suggest = (query: string, repository = 'octo/api') => suggestPaths(deps, null, { repository, query });
  const expected = (query: string, repository = 'octo/api') => suggestPaths(direct, null, { repository, query });
  /** suggestCandidates calls that reached the index since the last look. */
  const indexCalls = () => {
    const count = asked.mock.calls.length;
    asked.mockClear();
    return count;
  };
  /** findRetired calls that reached the index since the last look. */
  const retiredCalls = () => {
    const count = retiredAsked.mock.calls.length;
    retiredAsked.mockClear();
    return count;
  };
  /** listFiles and listFolders calls that reached the index since the last look. */
  const listCalls = () => {
    const count = listed.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    for (const spy of listed) spy.mockClear();
    return count;
  };
  return { index, deps, direct, suggest, expected, indexCalls, retiredCalls, listCalls, loaded, summarised, loads, clock, settled: () => watched.settled() };
}

describe('listings and suggestions from the catalogue of a snapshot in memory', () => {
  it('after the first listing, the next ones are answered from memory, as the index answers them', async () => {
    const { deps, direct, listCalls, loaded, summarised } = await reader();
    const list = (d: typeof deps, input: Record<string, unknown>) => listFiles(d, null, { repository: 'octo/api', ...input });
    await list(deps, {});
    expect(await loaded()).toMatchObject({ outcome: 'loaded' });
    expect(await summarised()).toMatchObject({ outcome: 'loaded' });
    listCalls();
    for (const input of [{}, { folder: 'src' }, { folder: 'src', depth: 3 }, { folder: 'test', limit: 1 }, { depth: 5, limit: 2 }]) {
      const answer = await list(deps, input);
      expect(listCalls()).toBe(0);
      expect(answer).toEqual(await list(direct, input));
      listCalls();
    }
  });

  it('after the first suggestion, the next ones are answered from memory, as the index answers them', async () => {
    const { suggest, expected, indexCalls, loaded } = await reader();
    expect((await suggest('src/srever.ts')).structured.suggestions[0]?.path).toBe('src/server.ts');
    expect(indexCalls()).toBe(1);
    await loaded();
    for (const query of ['src/srever.ts', 'helpers', 'client.js', 'test/server', 'READ', 'nothing-like-it']) {
      const answer = await suggest(query);
      expect(indexCalls()).toBe(0);
      expect(answer).toEqual(await expected(query));
      indexCalls();
    }
  });

  it('answers suggestions and folders from the paths before the summaries are in, and lists files from the index until then', async () => {
    const { index, deps, direct, suggest, expected, indexCalls, loaded, summarised } = await reader();
    // The summaries' page waits until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const listing = SqliteIndexStore.prototype.listFiles.bind(index);
    const fromTheTool: string[] = [];
    const folders = jest.spyOn(index, 'listFolders');
    jest.spyOn(index, 'listFiles').mockImplementation(async (scope, after, limit) => {
      if (scope.folder === 'src') fromTheTool.push(scope.folder);
      else if (limit > 0) await held;
      return listing(scope, after, limit);
    });
    await suggest('server');
    await loaded();
    indexCalls();
    const suggested = await suggest('helpers');
    expect(indexCalls()).toBe(0);
    expect(suggested).toEqual(await expected('helpers'));
    const list = () => listFiles(deps, null, { repository: 'octo/api', folder: 'src' });
    const answer = await list();
    // The folders came from memory; the files, whose summaries are not in yet, from the index.
    expect(folders).not.toHaveBeenCalled();
    expect(fromTheTool.length).toBeGreaterThan(0);
    release();
    expect(await summarised()).toMatchObject({ outcome: 'loaded' });
    fromTheTool.length = 0;
    expect(await list()).toEqual(answer);
    expect(fromTheTool).toEqual([]);
    expect(answer).toEqual(await listFiles(direct, null, { repository: 'octo/api', folder: 'src' }));
  });

  it('loads the summaries of a catalogue only once a file listing is asked: suggestions never pay for them', async () => {
    const { index, deps, direct, suggest, loaded, summarised, loads } = await reader();
    const listed = jest.spyOn(index, 'listFiles');
    // The summaries' pages: every file, with a limit (the catalogue's count asks for none).
    const summaryPages = () => listed.mock.calls.filter(([scope, , limit]) => scope.folder === '' && scope.depth > 1_000 && limit > 0).length;
    await suggest('server');
    await loaded();
    await new Promise((resolve) => setImmediate(resolve));
    await suggest('helpers');
    expect(summaryPages()).toBe(0);
    expect(loads.seen.map((load) => load.kind)).toEqual(['catalogue']);
    const answer = await listFiles(deps, null, { repository: 'octo/api', folder: 'src' });
    expect(answer).toEqual(await listFiles(direct, null, { repository: 'octo/api', folder: 'src' }));
    expect(await summarised()).toMatchObject({ outcome: 'loaded' });
    expect(summaryPages()).toBeGreaterThan(0);
  });

  it('a second file read loads the catalogue too (one file read again and again does not)', async () => {
    const { deps, suggest, indexCalls, listCalls, loaded, loads, settled } = await reader();
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    // Every call those reads led to has answered and none followed: a load would have started by now.
    await settled();
    expect(listCalls()).toBe(0);
    expect(loads.seen).toEqual([]);
    await readFile(deps, null, { repository: 'octo/api', path: 'src/server.ts' });
    await loaded();
    expect((await suggest('lib/helper.ts')).structured.suggestions[0]?.path).toBe('src/lib/helpers.ts');
    expect(indexCalls()).toBe(0);
  });

  it('after a push, never suggests from the old paths: a new file is suggested, a removed one is not', async () => {
    const { index, suggest, loaded, clock } = await reader({ everyMs: 60_000 });
    await suggest('server');
    await loaded();
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/router.ts': 'r\n' }, remove: ['src/client.ts'] });
    // Past the reuse window of the lookups: the next call sees the push.
    await clock.advance(TTL * 3);
    // Loaded less than everyMs ago: the index answers, and answers the new snapshot.
    const paths = (await suggest('src/routr.ts')).structured.suggestions.map((s) => s.path);
    expect(paths[0]).toBe('src/router.ts');
    expect((await suggest('src/client.ts')).structured.suggestions.map((s) => s.path)).not.toContain('src/client.ts');
  });

  it('asks the index for a moved file only for paths that had a retired version', async () => {
    const { index, suggest, expected, retiredCalls, loaded } = await reader();
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/net/client.ts': 'c\n' }, remove: ['src/client.ts'] });
    await suggest('server');
    await loaded();
    retiredCalls();
    const moved = await suggest('src/client.ts');
    expect(moved.structured.suggestions[0]).toMatchObject({ path: 'src/net/client.ts', reason: 'moved' });
    expect(retiredCalls()).toBe(1);
    for (const query of ['src/clinet.ts', 'src/server.js', 'README.md']) {
      expect(await suggest(query)).toEqual(await expected(query));
      retiredCalls();
    }
    await suggest('src/clinet.ts');
    expect(retiredCalls()).toBe(0);
  });

  it('a repository with more files than maxFiles is not kept: its suggestions ask the index', async () => {
    const { suggest, indexCalls, loaded } = await reader({ maxFiles: 3 });
    await suggest('server');
    await loaded();
    await suggest('client');
    expect(indexCalls()).toBe(2);
  });

  it('keeps at most maxTotalFiles paths: the repository suggested least recently gives way', async () => {
    const files = (prefix: string) => Object.fromEntries([1, 2, 3, 4].map((n) => [`${prefix}/f${n}.ts`, `${n}\n`]));
    const { suggest, indexCalls, loaded } = await reader({ maxTotalFiles: 6 }, [
      { id: 1, fullName: 'octo/one', files: files('one') },
      { id: 2, fullName: 'octo/two', files: files('two') },
    ]);
    await suggest('f1.ts', 'octo/one');
    await loaded();
    await suggest('f1.ts', 'octo/two');
    await loaded();
    indexCalls();
    // octo/two (4 paths) pushed octo/one (4 paths) out of a budget of 6.
    await suggest('f2.ts', 'octo/two');
    expect(indexCalls()).toBe(0);
    await suggest('f2.ts', 'octo/one');
    expect(indexCalls()).toBe(1);
  });
});
