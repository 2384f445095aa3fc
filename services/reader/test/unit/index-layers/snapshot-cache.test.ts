import type { ListFilesOutput } from '@gitdex/contracts';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { resolveDeps } from '../../../src/deps';
import { composeIndex } from '../../../src/index-layers/compose';
import { listFiles } from '../../../src/tools/list-files';
import { ToolError } from '../../../src/tool-error';
import { countedIndex, currentSnapshot, FILES, REF } from '../../support/counted-index';
import { pushCommit, seedRepository } from '../../support/documents';
import { API_FILES } from '../../support/world';

describe('SnapshotCache: answers of a snapshot', () => {
  it('answers files, listings and stats of the current snapshot from memory, each set of arguments apart', async () => {
    const { index, calls } = await countedIndex();
    const cached = composeIndex(index, { metadataTtlMs: 0 });
    const snapshot = await currentSnapshot(cached);
    const root = { ...snapshot, folder: '', depth: 1 };
    const src = { ...snapshot, folder: 'src', depth: 10 };
    const ask = () => Promise.all([cached.getFile(snapshot, 'src/a.ts'), cached.listFolders(root), cached.listFiles(src, null, 10), cached.listFiles(src, 'src/a.ts', 10), cached.stats(snapshot)]);
    const first = await ask();
    expect(await ask()).toEqual(first);
    expect(first).toEqual(
      await Promise.all([index.getFile(snapshot, 'src/a.ts'), index.listFolders(root), index.listFiles(src, null, 10), index.listFiles(src, 'src/a.ts', 10), index.stats(snapshot)]),
    );
    expect(first[2].files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/lib/c.ts']);
    expect(first[3].files.map((f) => f.path)).toEqual(['src/b.ts', 'src/lib/c.ts']);
    const direct = { getFile: 1, listFolders: 1, listFiles: 2, stats: 1 };
    expect({ getFile: calls('getFile') - 1, listFolders: calls('listFolders') - 1, listFiles: calls('listFiles') - 2, stats: calls('stats') - 1 }).toEqual(direct);

    // Other arguments are other answers.
    await cached.listFiles(src, null, 1);
    await cached.listFiles(src, '', 10);
    await cached.listFiles({ ...src, depth: 1 }, null, 10);
    await cached.listFolders({ ...root, depth: 2 });
    await cached.listFolders({ ...root, folder: 'src' });
    await cached.getFile(snapshot, 'src/b.ts');
    expect(calls('listFiles')).toBe(4 + 3);
    expect(calls('listFolders')).toBe(2 + 2);
    expect(calls('getFile')).toBe(2 + 1);
  });

  it("keeps a current snapshot's outline of a file, and reads a pushed file's outline anew", async () => {
    const { index, calls } = await countedIndex();
    const cached = composeIndex(index, { metadataTtlMs: 0 });
    const old = await currentSnapshot(cached);
    const first = await cached.fileSymbols(old, 'src/a.ts');
    expect(first).toEqual(await index.fileSymbols(old, 'src/a.ts'));
    expect(await cached.fileSymbols(old, 'src/a.ts')).toEqual(first);
    await cached.fileSymbols(old, 'src/b.ts');
    expect(calls('fileSymbols')).toBe(1 + 1 + 1);

    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/a.ts': 'changed\n' } });
    const now = await currentSnapshot(cached);
    expect((await cached.fileSymbols(now, 'src/a.ts'))?.blobSha).not.toBe(first?.blobSha);
    expect(calls('fileSymbols')).toBe(3 + 1);
  });

  it('shares one index call among concurrent callers', async () => {
    const { index, calls } = await countedIndex();
    const cached = composeIndex(index);
    const snapshot = await currentSnapshot(cached);
    const answers = await Promise.all([1, 2, 3].map(() => cached.listFolders({ ...snapshot, folder: '', depth: 1 })));
    expect(answers[0]).toEqual([{ path: 'src', fileCount: 3 }]);
    expect(calls('listFolders')).toBe(1);
  });

  it('after a push reads the new generation, and asks the index for older ones every time (pruning changes them)', async () => {
    const { index, calls } = await countedIndex();
    const cached = composeIndex(index, { metadataTtlMs: 0 });
    const old = await currentSnapshot(cached);
    const oldSrc = { ...old, folder: 'src', depth: 10 };
    expect((await cached.getFile(old, 'src/a.ts'))?.content).toBe('a\n');
    expect((await cached.listFiles(oldSrc, null, 10)).total).toBe(3);

    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/a.ts': 'changed\n', 'src/new.ts': 'new\n' }, remove: ['src/b.ts'] });
    const now = await currentSnapshot(cached);
    expect(now.generation).toBe(old.generation + 1);
    expect((await cached.getFile(now, 'src/a.ts'))?.content).toBe('changed\n');
    expect((await cached.listFiles({ ...now, folder: 'src', depth: 10 }, null, 10)).files.map((f) => f.path)).toEqual(['src/a.ts', 'src/lib/c.ts', 'src/new.ts']);
    expect((await cached.stats(now)).fileCount).toBe(4);

    const before = calls('listFiles');
    expect((await cached.listFiles(oldSrc, null, 10)).total).toBe(3);
    expect((await cached.listFiles(oldSrc, null, 10)).total).toBe(3);
    expect(calls('listFiles')).toBe(before + 2);
    await index.pruneRetired(1, REF, now.generation);
    expect((await cached.listFiles(oldSrc, null, 10)).files.map((f) => f.path)).toEqual(['src/lib/c.ts']);
    expect(await cached.getFile(old, 'src/a.ts')).toBeNull();
  });

  it('keeps the counts of files a search skips per snapshot and scope, without the caller’s signal, and counts a pushed too-large file', async () => {
    const { index, calls, spies } = await countedIndex({
      ...FILES,
      'logo.png': { content: null, flags: { binary: true } },
      'vendor/blob.bin': { content: null, flags: { binary: true, vendored: true } },
    });
    const cached = composeIndex(index, { metadataTtlMs: 0 });
    const old = await currentSnapshot(cached);
    const signal = new AbortController().signal;
    expect(await cached.countUnsearchable(old, { includeGenerated: false }, { signal })).toEqual({ binary: 1, tooLarge: 0 });
    expect(await cached.countUnsearchable(old, { includeGenerated: false }, { signal })).toEqual({ binary: 1, tooLarge: 0 });
    expect(await cached.countUnsearchable(old, { includeGenerated: true })).toEqual({ binary: 2, tooLarge: 0 });
    expect(await cached.countUnsearchable(old, { includeGenerated: true, language: 'TypeScript' })).toEqual({ binary: 0, tooLarge: 0 });
    expect(calls('countUnsearchable')).toBe(3);
    // The shared load is nobody's call in particular: a caller's signal never reaches it.
    expect(spies.countUnsearchable.mock.calls[0]).toEqual([old, { includeGenerated: false }]);

    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'big.json': { content: null, flags: { tooLarge: true } } } });
    const now = await currentSnapshot(cached);
    expect(await cached.countUnsearchable(now, { includeGenerated: false })).toEqual({ binary: 1, tooLarge: 1 });
    expect(calls('countUnsearchable')).toBe(4);
  });

  it('never serves a deleted ref’s answers to the ref indexed again (its generations start over)', async () => {
    const { index } = await countedIndex();
    const cached = composeIndex(index, { metadataTtlMs: 0 });
    const first = await currentSnapshot(cached);
    expect((await cached.getFile(first, 'src/a.ts'))?.content).toBe('a\n');
    expect((await cached.listFiles({ ...first, folder: '', depth: 10 }, null, 10)).total).toBe(4);

    await index.deleteRef(1, REF);
    await seedRepository(index, { id: 1, fullName: 'octo/api', commitLabel: 'octo/api@again', files: { 'src/a.ts': 'again\n' } });
    const second = await currentSnapshot(cached);
    expect(second).toEqual(first);
    expect((await cached.getFile(second, 'src/a.ts'))?.content).toBe('again\n');
    expect((await cached.listFiles({ ...second, folder: '', depth: 10 }, null, 10)).total).toBe(1);
  });

  it('does not keep a failed answer: the next call asks the index again', async () => {
    const { index, spies, calls } = await countedIndex();
    const cached = composeIndex(index);
    const snapshot = await currentSnapshot(cached);
    const scope = { ...snapshot, folder: '', depth: 1 };
    spies.listFolders.mockRejectedValueOnce(new Error('engine down (test)'));
    spies.getFile.mockRejectedValueOnce(new Error('engine down (test)'));
    await expect(cached.listFolders(scope)).rejects.toThrow('engine down');
    await expect(cached.getFile(snapshot, 'README.md')).rejects.toThrow('engine down');
    expect(await cached.listFolders(scope)).toEqual([{ path: 'src', fileCount: 3 }]);
    expect((await cached.getFile(snapshot, 'README.md'))?.content).toBe('# A\n');
    await cached.listFolders(scope);
    await cached.getFile(snapshot, 'README.md');
    expect([calls('listFolders'), calls('getFile')]).toEqual([2, 2]);
  });

  it('keeps at most maxEntries answers, dropping the least recently used first', async () => {
    const { index, spies } = await countedIndex();
    const cached = composeIndex(index, { maxEntries: 2 });
    const snapshot = await currentSnapshot(cached);
    for (const path of ['src/a.ts', 'src/b.ts', 'src/a.ts', 'README.md', 'src/a.ts', 'src/b.ts']) await cached.getFile(snapshot, path);
    // a, b, (a kept), README drops b, (a kept), b again.
    expect(spies.getFile.mock.calls.map(([, path]) => path)).toEqual(['src/a.ts', 'src/b.ts', 'README.md', 'src/b.ts']);
  });

  it('keeps about maxBytes of answers: a file larger than that is read from the index each time, and pushes nothing out', async () => {
    const { index, spies } = await countedIndex({ ...FILES, 'big.txt': 'x'.repeat(100_000) });
    const cached = composeIndex(index, { maxBytes: 50_000 });
    const snapshot = await currentSnapshot(cached);
    for (const path of ['src/a.ts', 'big.txt', 'src/a.ts', 'big.txt']) await cached.getFile(snapshot, path);
    // The large answer does not push the small one out either.
    expect(spies.getFile.mock.calls.map(([, path]) => path)).toEqual(['src/a.ts', 'big.txt', 'big.txt']);
    for (const path of ['src/a.ts', 'src/b.ts', 'src/a.ts', 'src/b.ts']) await cached.getFile(snapshot, path);
    expect(spies.getFile.mock.calls.map(([, path]) => path).slice(3)).toEqual(['src/b.ts']);
  });
});

describe('SnapshotCache under list_files', () => {
  it('answers again exactly what the index alone answers, page by page', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 1, fullName: 'octo/api', files: API_FILES });
    const direct = resolveDeps({ index });
    const cached = resolveDeps({ index: composeIndex(index) });
    for (const input of [{ repository: 'octo/api' }, { repository: 'octo/api', depth: 3, limit: 4 }, { repository: 'octo/api', folder: 'src', depth: 2 }]) {
      let cursor: string | null = null;
      do {
        const args = { ...input, ...(cursor ? { cursor } : {}) };
        const expected = await listFiles(direct, null, args);
        expect(await listFiles(cached, null, args)).toEqual(expected);
        expect(await listFiles(cached, null, args)).toEqual(expected);
        cursor = expected.structured.next_cursor;
      } while (cursor);
    }
  });

  it('a cursor still lists its commit after a push, and expires once the index pruned it', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 1, fullName: 'octo/api', files: API_FILES });
    const deps = resolveDeps({ index: composeIndex(index, { metadataTtlMs: 0 }) });
    const list = (cursor?: string | null) => listFiles(deps, null, { repository: 'octo/api', folder: 'src', depth: 2, limit: 3, ...(cursor ? { cursor } : {}) });

    const first = (await list()).structured;
    const paths = first.entries.map((e) => e.path);
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@2', put: { 'src/aaa-new.ts': 'new\n' }, remove: ['src/server/routes.ts'] });
    let cursor = first.next_cursor;
    while (cursor) {
      const page: ListFilesOutput = (await list(cursor)).structured;
      expect(page.superseded_by).toBeDefined();
      paths.push(...page.entries.map((e) => e.path));
      cursor = page.next_cursor;
    }
    expect(paths).toContain('src/server/routes.ts');
    expect(paths).not.toContain('src/aaa-new.ts');
    expect((await list()).structured.entries.map((e) => e.path)).toContain('src/aaa-new.ts');

    const again = (await list()).structured;
    await pushCommit(index, { repositoryId: 1, ref: REF, label: 'octo/api@3', remove: ['src/aaa-new.ts'] });
    await index.pruneRetired(1, REF, 3);
    await expect(list(again.next_cursor)).rejects.toMatchObject({ code: 'CURSOR_EXPIRED' } satisfies Partial<ToolError>);
  });
});
