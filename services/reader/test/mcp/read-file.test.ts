import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ReadFileOutput } from '@gitdex/contracts';
import { commitSha, pushCommit, seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, SUBMODULE_COMMIT, type IndexKind, type World } from '../support/world';

const API_COMMIT = commitSha('octo/api@1');

describe.each<IndexKind>(['sqlite'])('read_file (%s index)', (kind) => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const read = async (args: Record<string, unknown>) => call(client, 'read_file', { repository: 'octo/api', ...args });

  beforeEach(async () => {
    world = await createWorld(kind);
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  test('a path whose first folder looks like a host name is a path, for every tool, not a URL', async () => {
    await seedRepository(world.index, { id: 60, fullName: 'octo/hosts', files: { 'jdk.jpackage/jdk/Info.java': 'class Info {}\n', 'example.com/index.html': '<p>hi</p>\n' } });
    const hosts = (tool: string, args: Record<string, unknown>) => call(client, tool, { repository: 'octo/hosts', ...args });
    expect(ok<ReadFileOutput>(await hosts('read_file', { path: 'jdk.jpackage/jdk/Info.java' })).content).toBe('class Info {}');
    expect(ok<ReadFileOutput>(await hosts('read_file', { path: 'example.com/index.html' })).content).toBe('<p>hi</p>');
    expect(ok<{ entries: { path: string }[] }>(await hosts('list_files', { folder: 'jdk.jpackage/jdk' })).entries.map((e) => e.path)).toEqual(['jdk.jpackage/jdk/Info.java']);
    expect(ok<{ suggestions: { path: string }[] }>(await hosts('suggest_paths', { query: 'jdk.jpackage/jdk/Inf.java' })).suggestions[0]?.path).toBe('jdk.jpackage/jdk/Info.java');
  });

  test('numbered lines of a range, with the total, where to read on and the GitHub URL of the lines', async () => {
    const result = await read({ path: 'src/server/http-server.ts', start_line: 10, end_line: 14 });
    const out = ok<ReadFileOutput>(result);
    expect(out).toMatchObject({
      repository: 'octo/api',
      ref: 'refs/heads/main',
      path: 'src/server/http-server.ts',
      kind: 'file',
      language: 'TypeScript',
      start_line: 10,
      end_line: 14,
      total_lines: 120,
      complete: false,
      truncated: false,
      next_start_line: 15,
      content: '// server 10\n// server 11\n// server 12\n// server 13\n// server 14',
      url: `https://github.com/octo/api/blob/${API_COMMIT}/src/server/http-server.ts#L10-L14`,
      freshness: { commit: API_COMMIT, indexed_at: '2025-01-02T03:04:05.000Z', pending: false },
    });
    const text = textOf(result);
    expect(text).toContain('10\t// server 10\n11\t// server 11');
    expect(text).toContain('read on with start_line 15');
  });

  test('reads at most 400 lines a call and pages to the end', async () => {
    let start = 1;
    const seen: string[] = [];
    for (let calls = 0; calls < 10; calls += 1) {
      const out = ok<ReadFileOutput>(await read({ path: 'long.txt', start_line: start }));
      expect(out.end_line - out.start_line + 1).toBeLessThanOrEqual(400);
      seen.push(...out.content.split('\n'));
      if (out.next_start_line === null) {
        expect(out.complete).toBe(true);
        break;
      }
      expect(out.complete).toBe(false);
      expect(out.truncated).toBe(true);
      start = out.next_start_line;
    }
    expect(seen).toHaveLength(1000);
    expect(seen[999]).toBe('line 1000');
  });

  test('stops at 16,000 characters, and cuts a single longer line saying so', async () => {
    const quotes = ok<ReadFileOutput>(await read({ path: 'quotes.json' }));
    expect(quotes.content.length).toBeLessThanOrEqual(16_000);
    expect(quotes).toMatchObject({ start_line: 1, end_line: 2, truncated: true, next_start_line: 3 });

    const result = await read({ path: 'dist/bundle.min.js' });
    const bundle = ok<ReadFileOutput>(result);
    expect(bundle).toMatchObject({ start_line: 1, end_line: 1, cut_line: 1, complete: false, truncated: true, next_start_line: 2, flags: { generated: true } });
    expect(bundle.content.length).toBeLessThan(16_000);
    expect(bundle.note).toMatch(/line 1 has 50,000 characters; only its first/);
    expect(textOf(result)).toMatch(/\[line 1 cut: 50,000 characters/);
    expect(ok<ReadFileOutput>(await read({ path: 'dist/bundle.min.js', start_line: 2 }))).toMatchObject({ content: 'second();', complete: true });
  });

  test('a start past the end reads the last line; a leading slash is ignored', async () => {
    expect(ok<ReadFileOutput>(await read({ path: '/long.txt', start_line: 5000 }))).toMatchObject({ start_line: 1000, end_line: 1000, content: 'line 1000', complete: true, next_start_line: null });
  });

  test('an end before the start says what to fix', async () => {
    const error = failed(await read({ path: 'long.txt', start_line: 20, end_line: 10 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.text).toMatch(/end_line \(10\) is before start_line \(20\): give an end_line of at least 20/);
  });

  test('a GitHub URL gives path, ref and lines; explicit arguments win', async () => {
    const url = `https://github.com/octo/api/blob/main/src/server/http-server.ts#L3-L4`;
    expect(ok<ReadFileOutput>(await read({ path: url }))).toMatchObject({ start_line: 3, end_line: 4, content: '// server 3\n// server 4' });
    expect(ok<ReadFileOutput>(await read({ path: url, start_line: 7, end_line: 7 }))).toMatchObject({ content: '// server 7' });
    expect(ok<ReadFileOutput>(await read({ repository: 'https://github.com/OCTO/API', path: `https://github.com/octo/api/blob/${API_COMMIT.slice(0, 12)}/README.md` }))).toMatchObject({
      path: 'README.md',
    });
    expect(failed(await read({ path: 'https://github.com/octo/web/blob/main/README.md' })).text).toMatch(/the URL is of octo\/web but repository is octo\/api/);
    expect(failed(await read({ path: 'https://github.com/octo/api/tree/main/src' })).text).toMatch(/that URL is a folder \(tree\); list it with list_files/);
  });

  test('files without readable text say what they are', async () => {
    const binary = ok<ReadFileOutput>(await read({ path: 'assets/logo.png' }));
    expect(binary).toMatchObject({ content: '', size: 20_480, flags: { binary: true }, complete: true });
    expect(binary.note).toMatch(/^A binary file \(20.0 KB\)/);
    const large = ok<ReadFileOutput>(await read({ path: 'data/big.json' }));
    expect(large.note).toMatch(/Too large to index \(4.8 MB\)/);
    const link = ok<ReadFileOutput>(await read({ path: 'link-to-readme' }));
    expect(link).toMatchObject({ kind: 'symlink', target: 'README.md', content: '' });
    expect(link.note).toBe('A symbolic link to README.md: read README.md for its content.');
    const submodule = ok<ReadFileOutput>(await read({ path: 'modules/shared' }));
    expect(submodule).toMatchObject({ kind: 'submodule', target: SUBMODULE_COMMIT });
    expect(submodule.note).toContain(SUBMODULE_COMMIT);
    expect(submodule.url).toBe(`https://github.com/octo/api/tree/${API_COMMIT}/modules/shared`);
  });

  test('vendored files are readable and flagged; CRLF, empty and unicode files read cleanly', async () => {
    const vendored = ok<ReadFileOutput>(await read({ path: 'vendor/lib.js' }));
    expect(vendored).toMatchObject({ content: 'var vendored = true;', flags: { vendored: true } });
    expect(vendored.note).toMatch(/vendored/);
    expect(ok<ReadFileOutput>(await read({ path: 'crlf.txt' })).content).toBe('one\ntwo\nthree');
    expect(ok<ReadFileOutput>(await read({ path: 'empty.txt' }))).toMatchObject({ content: '', total_lines: 0, complete: true, note: 'the file is empty.' });
    const unicode = ok<ReadFileOutput>(await read({ path: 'unicode/naïve café.md' }));
    expect(unicode.content).toBe('Grüße 😀');
    expect(unicode.url).toContain('/unicode/na%C3%AFve%20caf%C3%A9.md#L1');
  });

  test('ref: branch name, full ref, commit prefix; unknown ones list what is indexed', async () => {
    for (const ref of ['main', 'refs/heads/main', API_COMMIT.slice(0, 7), API_COMMIT.slice(0, 12), API_COMMIT]) {
      expect(ok<ReadFileOutput>(await read({ path: 'README.md', ref })).freshness.commit).toBe(API_COMMIT);
    }
    const branch = failed(await read({ path: 'README.md', ref: 'mian' }));
    expect(branch.code).toBe('NOT_FOUND');
    expect(branch.text).toMatch(/Ref mian is not indexed for octo\/api. Did you mean: main\? Indexed refs: main \(/);
    const commit = failed(await read({ path: 'README.md', ref: 'deadbeefdeadbeef' }));
    expect(commit.text).toMatch(/Commit deadbeefdeadbeef is not held for octo\/api: it is older than what gitdex keeps, or was never indexed.*Commits gitdex holds/);
  });

  test('a missing file suggests the closest paths; a folder says to list it', async () => {
    const missing = failed(await read({ path: 'src/utils/helpres.ts' }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.text).toMatch(/^No file src\/utils\/helpres.ts in octo\/api at main \([0-9a-f]{12}\)\. Did you mean: src\/utils\/helpers.ts/);
    expect(missing.suggestions[0]).toBe('src/utils/helpers.ts');
    const folder = failed(await read({ path: 'src/server' }));
    expect(folder.text).toMatch(/src\/server is a folder \(2 files under it\), not a file: list it with list_files/);
    expect(failed(await read({ path: '/' })).text).toMatch(/give a file path/);
  });

  test('a moved file points to where its content went', async () => {
    await pushCommit(world.index, {
      repositoryId: 1,
      ref: 'refs/heads/main',
      label: 'octo/api@2',
      put: { 'src/lib/format.ts': 'export const format = (s: string) => s;\n' },
      remove: ['src/utils/format.ts'],
    });
    const moved = failed(await read({ path: 'src/utils/format.ts' }));
    expect(moved.text).toMatch(/It was moved: its content is now at src\/lib\/format.ts\./);
    expect(moved.suggestions[0]).toBe('src/lib/format.ts');
    const suggested = ok<{ suggestions: { path: string; reason: string }[] }>(await call(client, 'suggest_paths', { repository: 'octo/api', query: 'src/utils/format.ts' }));
    expect(suggested.suggestions[0]).toEqual({ path: 'src/lib/format.ts', score: 1, reason: 'moved' });
  });

  test('a path of another repository names the readable repositories that have it', async () => {
    const error = failed(await read({ path: 'src/only-in-web.ts' }));
    expect(error.text).toMatch(/src\/only-in-web.ts exists in octo\/web: pass that repository instead\./);
    expect(error.text).not.toMatch(/secret/);
  });

  test('a newer push waiting to be indexed shows in freshness and text', async () => {
    const state = (await world.index.getRefState(1, 'refs/heads/main'))!;
    await world.index.putRefState({ ...state, pendingCommitSha: commitSha('octo/api@9'), pendingSince: '2025-01-05T00:00:00.000Z' });
    const result = await read({ path: 'README.md' });
    expect(ok<ReadFileOutput>(result).freshness).toEqual({
      commit: API_COMMIT,
      indexed_at: '2025-01-02T03:04:05.000Z',
      pending: true,
      pending_commit: commitSha('octo/api@9'),
      served_at: '2025-01-02T03:04:05.000Z',
      lag_ms: 0,
    });
    expect(textOf(result)).toMatch(/Note: a newer push \([0-9a-f]{12}\) is being indexed/);
    const early = failed(await read({ path: 'README.md', ref: commitSha('octo/api@9').slice(0, 10) }));
    expect(early.code).toBe('NOT_INDEXED');
    expect(early.text).toMatch(/is being indexed now: try again in a few seconds/);
  });

  test('every answer stays within the result budget', async () => {
    for (const path of ['long.txt', 'quotes.json', 'dist/bundle.min.js', 'src/server/http-server.ts']) {
      const result = await read({ path });
      expect(textOf(result).length + JSON.stringify(result.structuredContent).length).toBeLessThan(60_000);
    }
  });
});
