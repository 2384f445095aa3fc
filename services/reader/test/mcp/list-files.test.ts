import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListFilesOutput } from '@gitdex/contracts';
import type { FileSpec } from '../support/documents';
import { pushCommit, seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type IndexKind, type World } from '../support/world';

describe.each<IndexKind>(['sqlite'])('list_files (%s index)', (kind) => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const list = async (args: Record<string, unknown>) => call(client, 'list_files', { repository: 'octo/api', ...args });

  beforeEach(async () => {
    world = await createWorld(kind);
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  test('the root: folders first with file counts, then files with sizes and flags, each by path', async () => {
    const result = await list({});
    const out = ok<ListFilesOutput>(result);
    expect(out.entries.map((e) => e.path)).toEqual([
      'assets',
      'data',
      'dist',
      'docs',
      'modules',
      'src',
      'unicode',
      'vendor',
      'README.md',
      'crlf.txt',
      'empty.txt',
      'link-to-readme',
      'long.txt',
      'quotes.json',
    ]);
    expect(out.entries[3]).toEqual({ type: 'folder', path: 'docs', name: 'docs', file_count: 2 });
    expect(out.entries.find((e) => e.path === 'link-to-readme')).toMatchObject({ type: 'file', kind: 'symlink', target: 'README.md' });
    expect(out).toMatchObject({ folder: '', depth: 1, total_entries: 14, offset: 0, remaining: 0, next_cursor: null });
    expect(textOf(result)).toContain('src/  (5 files)');
    expect(textOf(result)).toContain('link-to-readme  9 B [symlink → README.md]');
  });

  test('a folder, deeper levels, a tree URL, flags of vendored and binary files', async () => {
    const src = ok<ListFilesOutput>(await list({ folder: '/src/' }));
    expect(src.entries.map((e) => e.path)).toEqual(['src/server', 'src/utils', 'src/index.ts']);
    const deep = ok<ListFilesOutput>(await list({ folder: 'src', depth: 2 }));
    expect(deep.entries.map((e) => e.path)).toEqual(['src/server', 'src/utils', 'src/index.ts', 'src/server/http-server.ts', 'src/server/routes.ts', 'src/utils/format.ts', 'src/utils/helpers.ts']);
    const viaUrl = ok<ListFilesOutput>(await list({ folder: 'https://github.com/octo/api/tree/main/docs' }));
    expect(viaUrl.entries.map((e) => e.path)).toEqual(['docs/api', 'docs/guide.md']);
    expect(ok<ListFilesOutput>(await list({ folder: 'vendor' })).entries[0]).toMatchObject({ flags: { vendored: true } });
    expect(ok<ListFilesOutput>(await list({ folder: 'assets' })).entries[0]).toMatchObject({ flags: { binary: true }, size: 20_480 });
  });

  test('pages with limit and an opaque cursor, counting what is left', async () => {
    const first = ok<ListFilesOutput>(await list({ limit: 5 }));
    expect(first).toMatchObject({ total_entries: 14, offset: 0, remaining: 9 });
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = ok<ListFilesOutput>(await list({ limit: 5, cursor: first.next_cursor }));
    expect(second).toMatchObject({ offset: 5, remaining: 4 });
    const third = ok<ListFilesOutput>(await list({ limit: 5, cursor: second.next_cursor }));
    expect(third).toMatchObject({ offset: 10, remaining: 0, next_cursor: null });
    expect([...first.entries, ...second.entries, ...third.entries].map((e) => e.path)).toEqual(ok<ListFilesOutput>(await list({})).entries.map((e) => e.path));
  });

  test('a missing folder suggests the closest; a file says to read it', async () => {
    const missing = failed(await list({ folder: 'src/utlis' }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.text).toMatch(/^No folder src\/utlis in octo\/api at main \([0-9a-f]{12}\)\. Did you mean: src\/utils/);
    expect(failed(await list({ folder: 'src/index.ts' })).text).toMatch(/src\/index.ts is a file, not a folder: read it with read_file/);
    expect(failed(await list({ folder: 'https://github.com/octo/api/blob/main/README.md' })).text).toMatch(/that URL is a file \(blob\); read it with read_file/);
  });

  test('limits and cursors that do not fit are refused with what to do', async () => {
    expect(failed(await list({ limit: 1001 })).text).toMatch(/limit: a whole number from 1 to 1,000 entries a page \(page on with cursor\) \(got 1001\)/);
    expect(failed(await list({ depth: 65 })).text).toMatch(/depth: a whole number from 1 .* to 64 \(got 65\)/);
    expect(failed(await list({ cursor: 'garbage!' })).text).toMatch(/cursor: not a cursor this server returned/);
    const first = ok<ListFilesOutput>(await list({ folder: 'src', limit: 1 }));
    expect(failed(await list({ folder: 'docs', cursor: first.next_cursor })).text).toMatch(/cursor: it continues the listing of folder src; pass that folder or leave folder out/);
    expect(failed(await list({ folder: 'src', depth: 2, cursor: first.next_cursor })).text).toMatch(/continues a listing of depth 1/);
    expect(failed(await list({ folder: 'src', ref: 'nope', cursor: first.next_cursor })).text).toMatch(/continues a listing of main; pass that ref or leave ref out/);
    expect(ok<ListFilesOutput>(await list({ ref: 'refs/heads/main', cursor: first.next_cursor })).offset).toBe(1);
    expect(failed(await call(client, 'list_files', { repository: 'octo/web', cursor: first.next_cursor })).text).toMatch(/belongs to a listing of another repository/);
    expect(ok<ListFilesOutput>(await list({ folder: 'src', limit: 1, cursor: first.next_cursor })).offset).toBe(1);
  });

  test('a folder of 10,000 files pages through every entry exactly once, within the result budget', async () => {
    const files: Record<string, FileSpec> = {};
    for (let i = 0; i < 10_000; i += 1) files[`big/file-${String(i).padStart(5, '0')}-${'n'.repeat(i % 7 === 0 ? 120 : 10)}.txt`] = `${i}\n`;
    for (let i = 0; i < 20; i += 1) files[`big/sub-${i}/x.txt`] = 'x\n';
    await seedRepository(world.index, { id: 9, fullName: 'octo/big', files });
    const seen = new Set<string>();
    const order: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const result = await call(client, 'list_files', { repository: 'octo/big', folder: 'big', limit: 300, ...(cursor ? { cursor } : {}) });
      const page: ListFilesOutput = ok<ListFilesOutput>(result);
      expect(textOf(result).length + JSON.stringify(page).length).toBeLessThan(60_000);
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries.length).toBeLessThanOrEqual(300);
      expect(page.total_entries).toBe(10_020);
      expect(page.offset + page.entries.length + page.remaining).toBe(10_020);
      for (const entry of page.entries) {
        expect(seen.has(entry.path)).toBe(false);
        seen.add(entry.path);
        order.push(entry.path);
      }
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    expect(seen.size).toBe(10_020);
    expect(order.slice(0, 20).every((p) => p.startsWith('big/sub-'))).toBe(true);
    const files_ = order.slice(20);
    expect([...files_].sort()).toEqual(files_);
  });

  test('a cursor keeps listing the commit it started on after a push, and expires once that commit is pruned', async () => {
    const first = ok<ListFilesOutput>(await list({ folder: 'src', depth: 2, limit: 3 }));
    const before = [...first.entries.map((e) => e.path)];
    let cursor = first.next_cursor;
    // A push that adds, changes and removes files in the listed folder.
    await pushCommit(world.index, {
      repositoryId: 1,
      ref: 'refs/heads/main',
      label: 'octo/api@2',
      put: { 'src/aaa-new.ts': 'new\n', 'src/utils/helpers.ts': 'changed\n' },
      remove: ['src/server/routes.ts'],
    });
    while (cursor) {
      const page: ListFilesOutput = ok<ListFilesOutput>(await list({ folder: 'src', depth: 2, limit: 3, cursor }));
      expect(page.freshness.commit).toBe(first.freshness.commit);
      expect(page.superseded_by).toBeDefined();
      before.push(...page.entries.map((e) => e.path));
      cursor = page.next_cursor;
    }
    expect(before).toEqual(['src/server', 'src/utils', 'src/index.ts', 'src/server/http-server.ts', 'src/server/routes.ts', 'src/utils/format.ts', 'src/utils/helpers.ts']);
    const fresh = ok<ListFilesOutput>(await list({ folder: 'src', depth: 2 }));
    expect(fresh.entries.map((e) => e.path)).toContain('src/aaa-new.ts');
    expect(fresh.entries.map((e) => e.path)).not.toContain('src/server/routes.ts');

    const again = ok<ListFilesOutput>(await list({ folder: 'src', depth: 2, limit: 3 }));
    await pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label: 'octo/api@3', remove: ['src/aaa-new.ts'] });
    await world.index.pruneRetired(1, 'refs/heads/main', 3);
    const expired = failed(await list({ folder: 'src', depth: 2, limit: 3, cursor: again.next_cursor }));
    expect(expired.code).toBe('CURSOR_EXPIRED');
    expect(expired.text).toMatch(/no longer keeps every file of [0-9a-f]{12}, so the listing cannot go on consistently\. Start again without cursor\./);
  });
});
