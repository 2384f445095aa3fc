import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SearchCodeOutput } from '@gitdex/contracts';
import { pushCommit, seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type IndexKind, type World } from '../support/world';

const CODE = {
  'src/retry.ts': 'import { x } from "./x";\nexport function retryAfterMs(response: Response) {\n  return Number(response.headers.get("retry-after")) * 1000;\n}\n',
  'src/client.ts': 'import { retryAfterMs } from "./retry";\n\nconst wait = retryAfterMs(res);\nconst waitAgain = RETRYAFTERMS;\n',
  'test/retry.test.ts': 'it("retryAfterMs", () => retryAfterMs(r));\n',
  'src/deep/nested/folder/use.ts': 'retryAfterMs();\n',
  'src/words.ts': 'maxretryAfterMsValue = 1;\n',
  'vendor/lib.js': { content: 'function retryAfterMs() {}\n', flags: { vendored: true } },
  'assets/blob.bin': { content: null, size: 100, flags: { binary: true }, language: null },
  'big.json': { content: null, size: 9_000_000, flags: { tooLarge: true } },
  'README.md': '# Retry\n\nCall retryAfterMs(response).\n',
};

describe.each<IndexKind>(['sqlite'])('search_code (%s index)', (kind) => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const search = async (args: Record<string, unknown>) => call(client, 'search_code', { repository: 'octo/code', ...args });

  beforeEach(async () => {
    world = await createWorld(kind);
    await seedRepository(world.index, { id: 40, fullName: 'octo/code', files: CODE });
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  test('a literal: every matching line with ranges and context, definitions and source first, tests and vendored last', async () => {
    const result = await search({ query: 'retryAfterMs', context_lines: 1, include_generated: true });
    const out = ok<SearchCodeOutput>(result);
    expect(out.case_sensitive).toBe(true);
    expect(out.files.map((f) => f.path)).toEqual(['src/retry.ts', 'README.md', 'src/client.ts', 'src/deep/nested/folder/use.ts', 'test/retry.test.ts', 'vendor/lib.js', 'src/words.ts']);
    const [definition] = out.files;
    expect(definition?.matches).toEqual([
      {
        line: 2,
        text: 'export function retryAfterMs(response: Response) {',
        ranges: [[16, 28]],
        before: ['import { x } from "./x";'],
        after: ['  return Number(response.headers.get("retry-after")) * 1000;'],
      },
    ]);
    expect(definition?.url).toMatch(/^https:\/\/github\.com\/octo\/code\/blob\/[0-9a-f]{40}\/src\/retry\.ts$/);
    expect(out.files[2]?.matches.map((m) => m.line)).toEqual([1, 3]);
    expect(out).toMatchObject({ total_files: 7, total_matches: 8, counts_exact: true, complete: true, next_cursor: null, skipped: { binary: 1, too_large: 1 } });
    expect(textOf(result)).toContain('src/retry.ts:2: export function retryAfterMs(response: Response) {');
    expect(textOf(result)).toContain('src/retry.ts-1- import { x } from "./x";');
  });

  test('smart case: lower case finds every case; case_sensitive overrides', async () => {
    const insensitive = ok<SearchCodeOutput>(await search({ query: 'retryafterms' }));
    expect(insensitive.case_sensitive).toBe(false);
    expect(insensitive.files.find((f) => f.path === 'src/client.ts')?.matches.map((m) => m.line)).toEqual([1, 3, 4]);
    const sensitive = ok<SearchCodeOutput>(await search({ query: 'retryafterms', case_sensitive: true }));
    expect(sensitive.total_files).toBe(0);
  });

  test('regex with classes, alternation and anchors; vendored files only on request', async () => {
    const out = ok<SearchCodeOutput>(await search({ query: '^(export )?function \\w+\\(', regex: true }));
    expect(out.files.map((f) => f.path)).toEqual(['src/retry.ts']);
    const vendored = ok<SearchCodeOutput>(await search({ query: '^(export )?function \\w+\\(', regex: true, include_generated: true }));
    expect(vendored.files.map((f) => f.path).sort()).toEqual(['src/retry.ts', 'vendor/lib.js']);
    const alternation = ok<SearchCodeOutput>(await search({ query: 'Number|Call', regex: true }));
    expect(alternation.files.map((f) => f.path).sort()).toEqual(['README.md', 'src/retry.ts']);
  });

  test('path, exclude and language filters', async () => {
    const ts = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs', path: 'src/**/*.ts', exclude: ['**/deep/**'] }));
    expect(ts.files.map((f) => f.path).sort()).toEqual(['src/client.ts', 'src/retry.ts', 'src/words.ts']);
    const byName = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs', path: '*.md' }));
    expect(byName.files.map((f) => f.path)).toEqual(['README.md']);
    const markdown = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs', language: 'Markdown' }));
    expect(markdown.files.map((f) => f.path)).toEqual(['README.md']);
  });

  test("pages with a cursor pinned to the first page's commit, even after a push", async () => {
    const first = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs', limit: 2 }));
    expect(first.files).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    await pushCommit(world.index, { repositoryId: 40, ref: 'refs/heads/main', label: 'more', put: { 'src/a.ts': 'retryAfterMs\n' } });
    const seen = [...first.files.map((f) => f.path)];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs', limit: 2, cursor }));
      seen.push(...page.files.map((f) => f.path));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(['src/retry.ts', 'README.md', 'src/client.ts', 'src/deep/nested/folder/use.ts', 'test/retry.test.ts', 'src/words.ts']);
    const fresh = ok<SearchCodeOutput>(await search({ query: 'retryAfterMs' }));
    expect(fresh.files.map((f) => f.path)).toContain('src/a.ts');
    const other = failed(await search({ query: 'somethingElse', cursor: first.next_cursor }));
    expect(other.code).toBe('INVALID_ARGUMENT');
  });

  test('the cap of matching files: the scan stops there, ranks the first ones in path order and says so', async () => {
    const capped = await createWorld(kind, { limits: { searchMaxFiles: 3 } });
    await seedRepository(capped.index, { id: 40, fullName: 'octo/code', files: CODE });
    const connection = await connectInMemory(capped.deps);
    try {
      const result = await call(connection.client, 'search_code', { repository: 'octo/code', query: 'retryAfterMs', limit: 2 });
      const first = ok<SearchCodeOutput>(result);
      // README.md, src/client.ts and src/deep/… come first in path order; src/retry.ts (the definition) is past the cap.
      expect(first).toMatchObject({ total_files: 3, counts_exact: false, complete: false });
      expect(textOf(result)).toContain('stopped at its cap of 3 matching files');
      const rest = ok<SearchCodeOutput>(await call(connection.client, 'search_code', { repository: 'octo/code', query: 'retryAfterMs', limit: 2, cursor: first.next_cursor }));
      expect([...first.files, ...rest.files].map((f) => f.path)).toEqual(['README.md', 'src/client.ts', 'src/deep/nested/folder/use.ts']);
      expect(rest.next_cursor).toBeNull();
      // Under the cap nothing changes: every match, counted exactly.
      expect(ok<SearchCodeOutput>(await call(connection.client, 'search_code', { repository: 'octo/code', query: 'Number(' }))).toMatchObject({ total_files: 1, counts_exact: true, complete: true });
    } finally {
      await connection.close();
    }
  });

  test('a pushed line is found and a removed one is not', async () => {
    await pushCommit(world.index, { repositoryId: 40, ref: 'refs/heads/main', label: 'push', put: { 'src/retry.ts': 'export const brandNewLine = 1;\n' } });
    expect(ok<SearchCodeOutput>(await search({ query: 'brandNewLine' })).files.map((f) => f.path)).toEqual(['src/retry.ts']);
    expect(ok<SearchCodeOutput>(await search({ query: 'export function retryAfterMs' })).total_files).toBe(0);
  });

  test('every readable repository without repository; ref only with one repository', async () => {
    const all = ok<SearchCodeOutput>(await call(client, 'search_code', { query: 'web only' }));
    expect(all.files.map((f) => `${f.repository}:${f.path}`)).toEqual(['octo/web:src/only-in-web.ts']);
    expect(all.repositories.map((r) => r.repository)).not.toContain('octo/secret');
    // Repositories with nothing readable yet are left out, and a search queues no index of them.
    expect(all.repositories.map((r) => r.repository).sort()).toEqual(['octo/api', 'octo/code', 'octo/web']);
    expect(world.publisher.events).toEqual([]);
    const owner = ok<SearchCodeOutput>(await call(client, 'search_code', { query: 'web', repositories: ['octo/*'] }));
    expect(owner.repositories.map((r) => r.repository).sort()).toEqual(['octo/api', 'octo/code', 'octo/web']);
    expect(failed(await call(client, 'search_code', { query: 'x', ref: 'main' })).code).toBe('INVALID_ARGUMENT');
    expect(failed(await call(client, 'search_code', { query: 'x', repository: 'octo/secret' })).code).toBe('REPOSITORY_NOT_FOUND');
  });

  test('an invalid regex says what is wrong in it; a raw line break is refused', async () => {
    const bad = failed(await search({ query: 'foo(bar', regex: true }));
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(bad.text).toMatch(/missing closing \)/);
    expect(failed(await search({ query: '(?<=x)y', regex: true })).text).toMatch(/not a valid RE2/);
    expect(failed(await search({ query: 'a\nb' })).code).toBe('INVALID_ARGUMENT');
  });

  test('hostile patterns answer at once, with a result or an error', async () => {
    await seedRepository(world.index, { id: 41, fullName: 'octo/aaa', files: { 'a.txt': `${'a'.repeat(5000)}!\n`.repeat(20) } });
    for (const query of ['(a+)+$', '(.*a){20}', '(a|aa)*b', `${'(a?)'.repeat(100)}${'a'.repeat(100)}`]) {
      // A result (complete, or cut by the deadline and saying so), never a hang or an internal error.
      const out = ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'octo/aaa', query, regex: true }));
      if (!out.complete) expect(out.counts_exact).toBe(false);
    }
    // The service still answers.
    expect(ok<SearchCodeOutput>(await search({ query: 'retryAfterMs' })).total_files).toBe(6);
    const long = failed(await search({ query: 'a'.repeat(10_000), regex: true }));
    expect(long.text).toMatch(/at most 1000 characters|at most 1,000 characters/);
  });
});
