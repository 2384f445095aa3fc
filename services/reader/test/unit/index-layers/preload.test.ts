import { Registry } from 'prom-client';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps } from '../../../src/deps';
import { composeIndex, type ComposeOptions } from '../../../src/index-layers/compose';
import { readAheadMetrics } from '../../../src/metrics';
import { readFile } from '../../../src/tools/read-file';
import { pushCommit, seedRepository } from '../../support/documents';
import { loadsAhead, until } from '../../support/loads-ahead';
import { manualClock } from '../../support/manual-clock';

const REF = 'refs/heads/main';
const FILES = { 'README.md': '# A\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/lib/c.ts': 'c\n', 'big.txt': 'x'.repeat(5_000) };
const TTL = 40;
/** Past the reuse window: the lookups a read made have expired unless kept fresh. */
const PAST_WINDOW = TTL * 3;

/**
 * A reader on the real SQLite adapter behind the read cache with the options an agent's
 * reads over a remote index get (short times, so the test waits milliseconds), every call
 * of the read path counted.
 */
async function reader(options: Partial<ComposeOptions> = {}) {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  await seedRepository(index, { id: 1, fullName: 'octo/api', files: FILES });
  const spies = {
    lookupForRead: jest.spyOn(index, 'lookupForRead'),
    getFile: jest.spyOn(index, 'getFile'),
    visibleFiles: jest.spyOn(index, 'visibleFiles'),
    listRefStates: jest.spyOn(index, 'listRefStates'),
    findRepositoryByName: jest.spyOn(index, 'findRepositoryByName'),
  };
  const loads = loadsAhead();
  // The reader's clock and keep-fresh timer are the test's: time passes only when the test
  // says so, however late a loaded machine would run a real timer.
  const clock = manualClock();
  const deps = resolveDeps({
    index: composeIndex(index, {
      metadataTtlMs: TTL,
      keepFreshMs: 2_000,
      now: clock.now,
      repeat: clock.repeat,
      onReadAhead: loads.onReadAhead,
      preload: { maxFileBytes: 1_000, maxBytes: 1_000_000, everyMs: 0 },
      ...options,
    }),
  });
  const read = async (path: string) => (await readFile(deps, null, { repository: 'octo/api', path })).structured.content;
  /** Calls of the read path since the last look (background lookups left out: they are what keeps a read from waiting). */
  const waited = () => {
    const counts = { lookupForRead: spies.lookupForRead.mock.calls.length, getFile: spies.getFile.mock.calls.length };
    spies.lookupForRead.mockClear();
    spies.getFile.mockClear();
    return counts;
  };
  return { index, deps, read, waited, spies, loads, clock };
}

describe('reads ahead of an agent', () => {
  it('a file read after the reuse window waits for no index call: lookups kept fresh, small files loaded once a second file is read', async () => {
    const { index, deps, read, waited, spies, loads, clock } = await reader();
    expect(await read('README.md')).toBe('# A');
    expect(await read('src/a.ts')).toBe('a');
    expect(await loads.ended('files')).toMatchObject({ outcome: 'loaded', repositoryId: 1, ref: REF });
    waited();
    for (const path of ['src/b.ts', 'src/lib/c.ts']) {
      // Past half the window: the lookups are asked again in the background; then past the
      // window of the first answers, which only the fresh ones cover.
      const asked = [spies.listRefStates.mock.results.length, spies.findRepositoryByName.mock.results.length];
      await clock.advance(TTL * 0.6);
      await until(() => spies.listRefStates.mock.results.length > asked[0]! && spies.findRepositoryByName.mock.results.length > asked[1]!, 'the lookups kept fresh');
      await Promise.all([...spies.listRefStates.mock.results.slice(asked[0]), ...spies.findRepositoryByName.mock.results.slice(asked[1])].map((result) => result.value as Promise<unknown>));
      await new Promise(setImmediate);
      await clock.advance(TTL * 0.6);
      const answer = await readFile(deps, null, { repository: 'octo/api', path });
      expect(waited()).toEqual({ lookupForRead: 0, getFile: 0 });
      // Byte for byte what the index alone answers.
      expect(answer).toEqual(await readFile(resolveDeps({ index }), null, { repository: 'octo/api', path }));
      waited();
    }
    // Bigger than maxFileBytes: not loaded ahead, read from the index.
    expect(await read('big.txt')).toHaveLength(5_000);
    expect(waited()).toEqual({ lookupForRead: 0, getFile: 1 });
  });

  it('sees a push within the reuse window, and reads the new commit, never the old one', async () => {
    const { index, read, clock } = await reader();
    expect(await read('src/a.ts')).toBe('a');
    await clock.advance(PAST_WINDOW);
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/a.ts': 'changed\n' }, remove: ['src/b.ts'] });
    await clock.advance(PAST_WINDOW);
    expect(await read('src/a.ts')).toBe('changed');
    await expect(read('src/b.ts')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('loads a ref again at most every everyMs: reads between go to the index, file by file, and are right', async () => {
    const { index, read, spies, loads, clock } = await reader({ preload: { maxFileBytes: 1_000, maxBytes: 1_000_000, everyMs: 60_000 } });
    expect(await read('src/a.ts')).toBe('a');
    expect(await read('README.md')).toBe('# A');
    await loads.ended('files');
    expect(spies.visibleFiles).toHaveBeenCalledTimes(1);
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/b.ts': 'new b\n' } });
    await clock.advance(PAST_WINDOW);
    expect(await read('src/b.ts')).toBe('new b');
    expect(await read('src/a.ts')).toBe('a');
    expect(spies.visibleFiles).toHaveBeenCalledTimes(1);
  });

  it('a client that reads one file of every new snapshot (a freshness probe) never loads the repository', async () => {
    const { index, read, spies, clock } = await reader();
    const listFiles = jest.spyOn(index, 'listFiles');
    for (let push = 2; push <= 5; push += 1) {
      expect(await read('src/a.ts')).toBe(push === 2 ? 'a' : `a${push - 1}`);
      expect(await read('src/a.ts')).toBe(push === 2 ? 'a' : `a${push - 1}`);
      await pushCommit(index, { repositoryId: 1, ref: REF, label: `octo/api@${push}`, put: { 'src/a.ts': `a${push}\n` } });
      await clock.advance(PAST_WINDOW);
    }
    expect(spies.visibleFiles).not.toHaveBeenCalled();
    expect(listFiles).not.toHaveBeenCalled();
  });

  it('stops at its budget of bytes', async () => {
    const many = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, `${i}\n`]));
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 1, fullName: 'octo/api', files: many });
    const visibleFiles = jest.spyOn(index, 'visibleFiles');
    const getFile = jest.spyOn(index, 'getFile');
    // A page of 500 small documents is far more than 1,000 bytes: one page, then the budget stops it.
    // A clock that stands still: the lookups stay reused, and the reads below go to getFile or to memory.
    const loads = loadsAhead();
    const deps = resolveDeps({ index: composeIndex(index, { metadataTtlMs: TTL, now: () => 0, onReadAhead: loads.onReadAhead, preload: { maxFileBytes: 1_000, maxBytes: 1_000, everyMs: 0 } }) });
    await readFile(deps, null, { repository: 'octo/api', path: 'f/0000.txt' });
    await readFile(deps, null, { repository: 'octo/api', path: 'f/0001.txt' });
    expect(await loads.ended('files')).toMatchObject({ outcome: 'stopped' });
    expect(visibleFiles).toHaveBeenCalledTimes(1);
    getFile.mockClear();
    await readFile(deps, null, { repository: 'octo/api', path: 'f/0100.txt' });
    await readFile(deps, null, { repository: 'octo/api', path: 'f/1100.txt' });
    expect(getFile.mock.calls.map(([, path]) => path)).toEqual(['f/1100.txt']);
  });

  it('a failed load costs nothing: reads ask the index file by file', async () => {
    // A clock that stands still: the lookups stay reused, and the read below goes to getFile or to memory.
    const { read, spies, waited, loads } = await reader({ now: () => 0 });
    spies.visibleFiles.mockRejectedValueOnce(new Error('engine busy'));
    expect(await read('README.md')).toBe('# A');
    expect(await read('src/b.ts')).toBe('b');
    expect(await loads.ended('files')).toMatchObject({ outcome: 'failed' });
    waited();
    expect(await read('src/a.ts')).toBe('a');
    expect(waited()).toEqual({ lookupForRead: 0, getFile: 1 });
  });

  it('keeps at most 8 repositories fresh, the most recently read: the background load is bounded', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    for (let id = 1; id <= 12; id += 1) await seedRepository(index, { id, fullName: `octo/r${id}`, files: { 'a.txt': `${id}\n`, 'b.txt': `${id}\n` } });
    const clock = manualClock();
    const deps = resolveDeps({ index: composeIndex(index, { metadataTtlMs: TTL, keepFreshMs: 5_000, now: clock.now, repeat: clock.repeat }) });
    for (let id = 1; id <= 12; id += 1) {
      for (const path of ['a.txt', 'b.txt']) await readFile(deps, null, { repository: `octo/r${id}`, path });
    }
    const states = jest.spyOn(index, 'listRefStates');
    // Past half the window: what is kept fresh is looked up again at the next tick.
    await clock.advance(TTL * 0.6);
    await until(() => states.mock.calls.some(([id]) => id === 12), 'the lookups kept fresh');
    await Promise.all(states.mock.results.map((result) => result.value as Promise<unknown>));
    const refreshed = new Set(states.mock.calls.map(([id]) => id));
    // At most 8 (16 lookups); the most recent in; the oldest out.
    expect(refreshed.size).toBeGreaterThan(0);
    expect(refreshed.size).toBeLessThanOrEqual(8);
    expect(refreshed.has(12)).toBe(true);
    for (const old of [1, 2, 3]) expect(refreshed.has(old)).toBe(false);
  });

  it('never refreshes the lookups of every repository in the background (a search of all of them): they are as large as the installation', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 1, fullName: 'octo/api', files: FILES });
    const clock = manualClock();
    const cached = composeIndex(index, { metadataTtlMs: TTL, keepFreshMs: 5_000, now: clock.now, repeat: clock.repeat });
    const repositories = jest.spyOn(index, 'listRepositories');
    const states = jest.spyOn(index, 'listRefStates');
    await cached.listRepositories();
    await cached.listRefStates();
    await clock.advance(200);
    expect(clock.running()).toBe(false);
    expect(repositories).toHaveBeenCalledTimes(1);
    expect(states.mock.calls.filter(([id]) => id === undefined)).toHaveLength(1);
  });

  it('a client that reads one file again and again is not an agent at work: nothing is looked up in the background for it', async () => {
    const { read, spies, clock } = await reader();
    for (let i = 0; i < 5; i += 1) {
      await read('README.md');
      await clock.advance(TTL / 2);
    }
    spies.listRefStates.mockClear();
    spies.lookupForRead.mockClear();
    await clock.advance(200);
    expect(clock.running()).toBe(false);
    expect(spies.listRefStates).not.toHaveBeenCalled();
    expect(spies.lookupForRead).not.toHaveBeenCalled();
  });

  it('stops looking up in the background once nothing was read for keepFreshMs', async () => {
    const { read, spies, clock } = await reader({ keepFreshMs: 150 });
    await read('README.md');
    await read('src/a.ts');
    expect(clock.running()).toBe(true);
    await clock.advance(400);
    expect(clock.running()).toBe(false);
    spies.listRefStates.mockClear();
    await clock.advance(200);
    expect(spies.listRefStates).not.toHaveBeenCalled();
  });

  it('counts its loads ahead, by kind and outcome, for the metrics endpoint', async () => {
    const registry = new Registry();
    const count = readAheadMetrics(registry);
    const loads = loadsAhead();
    const { deps } = await reader({
      catalogue: { maxFiles: 1_000, maxTotalFiles: 10_000, everyMs: 0 },
      onReadAhead: (load) => {
        count(load);
        loads.onReadAhead(load);
      },
    });
    await readFile(deps, null, { repository: 'octo/api', path: 'README.md' });
    await readFile(deps, null, { repository: 'octo/api', path: 'src/a.ts' });
    await Promise.all([loads.ended('files'), loads.ended('catalogue')]);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/gitdex_reader_reads_ahead_total\{kind="files",outcome="loaded"\} 1/);
    expect(metrics).toMatch(/gitdex_reader_reads_ahead_total\{kind="catalogue",outcome="loaded"\} 1/);
    expect(metrics).toMatch(/gitdex_reader_read_ahead_duration_seconds_count\{kind="catalogue"\} 1/);
  });
});
