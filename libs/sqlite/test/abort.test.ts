import { SqliteIndexStore } from '@gitdex/sqlite';
import { MAIN, makeFile, makeRepository, put } from '../../../test/conformance/index-store.fixtures';

// Issue 17, item 2: a reader whose call was given up (deadline, cancellation) passes an
// aborted signal; every read refuses with its reason instead of running its statements.
describe('SqliteIndexStore reads and searches take an AbortSignal in IndexCallOptions', () => {
  const snapshot = { repositoryId: 7, ref: MAIN, generation: 1 };
  const scope = { ...snapshot, folder: '', depth: 1 };
  const reads = (store: SqliteIndexStore, options: { signal: AbortSignal }): [string, () => Promise<unknown>][] => [
    ['getRepository', () => store.getRepository(7, options)],
    ['findRepositoryByName', () => store.findRepositoryByName('octo/abort', options)],
    ['listRepositories', () => store.listRepositories(options)],
    ['getRefState', () => store.getRefState(7, MAIN, options)],
    ['listRefStates', () => store.listRefStates(undefined, options)],
    ['visibleEntries', () => store.visibleEntries(snapshot, null, 10, options)],
    ['lookupEntries', () => store.lookupEntries(snapshot, ['a.ts'], options)],
    ['getFile', () => store.getFile(snapshot, 'a.ts', options)],
    ['listFolders', () => store.listFolders(scope, options)],
    ['listFiles', () => store.listFiles(scope, null, 10, options)],
    ['stats', () => store.stats(snapshot, options)],
    ['suggestCandidates', () => store.suggestCandidates(snapshot, { pathLower: 'a.ts', nameLower: 'a.ts', tokens: ['a'], trigrams: [], limit: 5 }, options)],
    ['findByBlobSha', () => store.findByBlobSha(snapshot, 'x', 5, options)],
    ['findRetired', () => store.findRetired(snapshot, 'a.ts', options)],
    ['snapshotsWithPath', () => store.snapshotsWithPath([snapshot], 'a.ts', options)],
    ['lookupForRead', () => store.lookupForRead({ fullName: 'octo/abort', repositoryId: 7, versions: { ref: MAIN, path: 'a.ts', since: 0, limit: 2 } }, options)],
    ['visibleFiles', () => store.visibleFiles(snapshot, null, 10, 1_000, options)],
    ['retiredPaths', () => store.retiredPaths(snapshot, 10, options)],
    ['searchCandidates', () => store.searchCandidates(snapshot, { op: 'all' }, { includeGenerated: false, afterPath: null, limit: 10 }, options)],
    ['unsearchableFiles', () => store.unsearchableFiles(snapshot, { includeGenerated: false, afterPath: null, limit: 10 }, options)],
    ['countUnsearchable', () => store.countUnsearchable(snapshot, { includeGenerated: false }, options)],
    ['readContents', () => store.readContents(snapshot, ['a.ts'], options)],
  ];

  let store: SqliteIndexStore;
  beforeAll(async () => {
    store = new SqliteIndexStore({ file: ':memory:' });
    await store.ensureReady();
    await store.putRepository(makeRepository(7, 'octo/abort'));
    await store.writeFiles([put(makeFile({ repositoryId: 7, path: 'a.ts' }))]);
  });
  afterAll(() => store.close());

  test('an aborted signal refuses each read with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline passed (test)');
    controller.abort(reason);
    for (const [, read] of reads(store, { signal: controller.signal })) await expect(read()).rejects.toBe(reason);
  });

  test('a live signal answers exactly as no signal', async () => {
    const live = reads(store, { signal: new AbortController().signal });
    const plain = reads(store, {} as { signal: AbortSignal });
    for (let i = 0; i < live.length; i += 1) {
      expect(await live[i]![1]()).toEqual(await plain[i]![1]());
    }
  });
});
