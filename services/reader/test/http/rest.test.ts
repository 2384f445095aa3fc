import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Registry } from 'prom-client';
import type { ListFilesOutput, ReadFileOutput, RepositoriesStateOutput, RepositoryOverviewOutput, SearchCodeOutput, SuggestPathsOutput } from '@gitdex/contracts';
import { createReaderApp, createReaderRouter } from '../../src/app';
import { resolveDeps } from '../../src/deps';
import { pushCommit, seedRepository } from '../support/documents';
import { faulty } from '../support/faults';
import { createWorld, type World } from '../support/world';

let world: World;
let server: Server;
let base: string;

beforeAll(async () => {
  world = await createWorld();
  const app = createReaderApp(world.deps, { registry: new Registry() });
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

async function get<T>(path: string, status = 200): Promise<T> {
  const response = await fetch(`${base}${path}`);
  const body = (await response.json()) as T;
  expect({ path, status: response.status }).toEqual({ path, status });
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return body;
}

interface ErrorBody {
  error: { code: string; message: string; suggestions?: string[] };
}

describe('REST /v1', () => {
  test('GET /v1/repositories: state of every readable repository, or of those named', async () => {
    const all = await get<RepositoriesStateOutput>('/v1/repositories');
    expect(all.repositories.map((r) => r.repository)).toEqual(['octo/api', 'octo/broken', 'octo/fresh', 'octo/pending', 'octo/web']);
    const named = await get<RepositoriesStateOutput>('/v1/repositories?repository=octo/web&repository=nobody/here');
    expect(named.repositories.map((r) => r.status)).toEqual(['ready', 'unknown']);
    expect((await get<RepositoriesStateOutput>('/v1/repositories?repositories=octo/web,octo/api')).repositories).toHaveLength(2);
  });

  test('GET /v1/repositories/:owner/:repo: the overview', async () => {
    const overview = await get<RepositoryOverviewOutput>('/v1/repositories/octo/API');
    expect(overview).toMatchObject({ repository: 'octo/api', readme: { path: 'README.md' } });
  });

  test('GET .../tree: folders and files, paging, folder in the path or the query', async () => {
    const root = await get<ListFilesOutput>('/v1/repositories/octo/api/tree?limit=3');
    expect(root.entries.map((e) => e.path)).toEqual(['assets', 'data', 'dist']);
    const next = await get<ListFilesOutput>(`/v1/repositories/octo/api/tree?limit=3&cursor=${root.next_cursor}`);
    expect(next.offset).toBe(3);
    expect((await get<ListFilesOutput>('/v1/repositories/octo/api/tree/src/server')).entries.map((e) => e.path)).toEqual(['src/server/http-server.ts', 'src/server/routes.ts']);
    expect((await get<ListFilesOutput>('/v1/repositories/octo/api/tree?folder=src&depth=2')).total_entries).toBe(7);
  });

  test('GET .../files/*path: lines of a file, percent-encoded names included', async () => {
    const file = await get<ReadFileOutput>('/v1/repositories/octo/api/files/src/server/http-server.ts?start_line=2&end_line=3');
    expect(file).toMatchObject({ content: '// server 2\n// server 3', start_line: 2, end_line: 3, total_lines: 120 });
    expect((await get<ReadFileOutput>(`/v1/repositories/octo/api/files/${encodeURIComponent('unicode')}/${encodeURIComponent('naïve café.md')}`)).content).toBe('Grüße 😀');
  });

  test('GET .../suggest?q=: suggestions best first', async () => {
    const suggested = await get<SuggestPathsOutput>('/v1/repositories/octo/api/suggest?q=src/utils/hlpers.ts&limit=3');
    expect(suggested.suggestions[0]!.path).toBe('src/utils/helpers.ts');
    expect(suggested.suggestions.length).toBeLessThanOrEqual(3);
  });

  test('errors are { error: { code, message } } with 400, 404, 410 and 503', async () => {
    const reversed = await get<ErrorBody>('/v1/repositories/octo/api/files/long.txt?start_line=9&end_line=2', 400);
    expect(reversed.error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/end_line \(2\) is before start_line \(9\)/) });
    expect((await get<ErrorBody>('/v1/repositories/octo/api/files/long.txt?start_line=abc', 400)).error.message).toMatch(/start_line: a whole line number/);
    expect((await get<ErrorBody>('/v1/repositories/octo/api/files/long.txt?start_line=1&start_line=2', 400)).error.message).toMatch(/start_line: give it once/);
    expect((await get<ErrorBody>('/v1/repositories/octo/api/tree?colour=blue', 400)).error.message).toMatch(/unknown argument "colour"/);
    const missing = await get<ErrorBody>('/v1/repositories/octo/api/files/src/utils/helper.ts', 404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND', suggestions: ['src/utils/helpers.ts'] });
    expect((await get<ErrorBody>('/v1/repositories/octo/secret', 404)).error.code).toBe('REPOSITORY_NOT_FOUND');
    expect((await get<ErrorBody>('/v1/repositories/octo/fresh/tree', 404)).error.code).toBe('NOT_INDEXED');
    expect((await get<ErrorBody>('/v1/nowhere', 404)).error.message).toMatch(/see \/v1\/openapi.json/);
    expect((await get<ErrorBody>('/v1/repositories/octo/api/tree?cursor=bad!', 400)).error.code).toBe('INVALID_ARGUMENT');
  });

  test('an expired cursor is 410', async () => {
    await seedRepository(world.index, { id: 20, fullName: 'octo/moving', files: { 'a/1.txt': '1', 'a/2.txt': '2', 'a/3.txt': '3' } });
    const first = await get<ListFilesOutput>('/v1/repositories/octo/moving/tree/a?limit=1');
    await pushCommit(world.index, { repositoryId: 20, ref: 'refs/heads/main', label: 'moving@2', remove: ['a/3.txt'] });
    await world.index.pruneRetired(20, 'refs/heads/main', 2);
    expect((await get<ErrorBody>(`/v1/repositories/octo/moving/tree/a?limit=1&cursor=${first.next_cursor}`, 410)).error.code).toBe('CURSOR_EXPIRED');
  });

  test('an unreachable index is 503 with Retry-After', async () => {
    const app = express();
    app.use(createReaderRouter(resolveDeps({ index: faulty(world.index, 'unavailable') }), { registry: new Registry() }));
    const down: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const response = await fetch(`http://127.0.0.1:${(down.address() as AddressInfo).port}/v1/repositories/octo/api`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as ErrorBody).error.message).toBe('The index is unavailable right now (it cannot be reached). Retry in a few seconds.');
    await new Promise<void>((resolve) => down.close(() => resolve()));
  });

  test('GET /v1/search and /v1/repositories/{owner}/{repo}/search: the search_code tool, with lists, switches and globs from the query string', async () => {
    const one = await get<SearchCodeOutput>('/v1/repositories/octo/api/search?q=SERVER&case_sensitive=false&path=src/**&context_lines=0');
    expect(one.files.map((f) => f.path)).toEqual(['src/index.ts', 'src/server/http-server.ts']);
    expect(one.files[1]!.matches[0]).toMatchObject({ line: 1, text: '// server 1', before: [], after: [] });
    const all = await get<SearchCodeOutput>('/v1/search?q=^web&regex=true&repositories=octo/web,octo/api');
    expect(all.files.map((f) => `${f.repository}:${f.path}`)).toEqual(['octo/web:src/index.ts', 'octo/web:src/only-in-web.ts']);
    const globs = await get<SearchCodeOutput>('/v1/search?q=web&path=src/{index,only-in-web}.ts&exclude=**/only-*');
    expect(globs.files.map((f) => f.path)).toEqual(['src/index.ts']);
    expect((await get<ErrorBody>('/v1/search?q=(&regex=true', 400)).error.message).toMatch(/not a valid RE2/);
    // refs repeated: names and globs of one repository's refs, each searched once.
    const refs = await get<SearchCodeOutput>('/v1/repositories/octo/api/search?q=SERVER&refs=main&refs=ma*');
    expect(refs.repositories.map((r) => r.ref)).toEqual(['refs/heads/main']);
    expect((await get<SearchCodeOutput>('/v1/repositories/octo/api/search?q=SERVER&case_sensitive=false&refs=main')).files.length).toBeGreaterThan(0);
    expect((await get<ErrorBody>('/v1/repositories/octo/api/search?q=SERVER&refs=pull/*', 404)).error.message).toMatch(/refs: pull\/\* match no indexed ref of octo\/api/);
  });

  test('GET /v1/openapi.json describes every route from the same schemas', async () => {
    const document = await get<{
      openapi: string;
      paths: Record<string, { get: { operationId: string; parameters: { name: string }[] } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }>('/v1/openapi.json');
    expect(document.openapi).toBe('3.1.0');
    expect(
      Object.values(document.paths)
        .map((p) => p.get.operationId)
        .sort(),
    ).toEqual([
      'blame',
      'compare',
      'file_outline',
      'find_references',
      'find_symbol',
      'list_commits',
      'list_files',
      'read_file',
      'repositories_state',
      'repository_changes',
      'repository_overview',
      'search_code',
      'search_code_in_repository',
      'suggest_paths',
    ]);
    expect(document.paths['/v1/search']!.get.parameters.map((p) => p.name)).toContain('q');
    expect(document.paths['/v1/repositories/{owner}/{repo}/search']!.get.parameters.map((p) => p.name)).toContain('refs');
    expect(document.paths['/v1/repositories/{owner}/{repo}/suggest']!.get.parameters.map((p) => p.name)).toEqual(['owner', 'repo', 'q', 'ref', 'limit', 'min_commit', 'wait_ms']);
    expect(document.paths['/v1/repositories/{owner}/{repo}/files/{path}']!.get.parameters.map((p) => p.name)).toEqual([
      'owner',
      'repo',
      'path',
      'ref',
      'start_line',
      'end_line',
      'offset',
      'max_bytes',
      'encoding',
      'min_commit',
      'wait_ms',
    ]);
    expect(Object.keys(document.components.schemas.ReadFileOutput!.properties)).toContain('next_start_line');
    expect(document.components.schemas.ErrorBody).toBeDefined();
  });
});
