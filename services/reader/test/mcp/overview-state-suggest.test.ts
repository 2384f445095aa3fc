import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BackfillEvent, RepositoriesStateOutput, RepositoryOverviewOutput, SuggestPathsOutput } from '@gitdex/contracts';
import { resolveDeps } from '../../src/deps';
import { commitSha, seedRepository } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type IndexKind, type World } from '../support/world';

describe.each<IndexKind>(['sqlite'])('repository_overview, repositories_state, suggest_paths (%s index)', (kind) => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    world = await createWorld(kind);
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  test('overview: commit, counts, languages by count, top level and README', async () => {
    const result = await call(client, 'repository_overview', { repository: 'Octo/Api' });
    const out = ok<RepositoryOverviewOutput>(result);
    expect(out).toMatchObject({
      repository: 'octo/api',
      ref: 'refs/heads/main',
      default_branch: 'main',
      file_count: 19,
      code_files: 7,
      documentation_files: 7,
      top_level_omitted: 0,
      readme: { path: 'README.md', content: '# API\n\nThe API service.\n\n## Usage\n\nRun it.\n', truncated: false },
      freshness: { commit: commitSha('octo/api@1'), pending: false },
    });
    expect(out.languages[0]).toEqual({ language: 'TypeScript', files: 5 });
    expect(out.languages.map((l) => l.files)).toEqual([...out.languages.map((l) => l.files)].sort((a, b) => b - a));
    expect(out.top_level.slice(0, 2)).toEqual([
      { type: 'folder', path: 'assets', name: 'assets', file_count: 1 },
      { type: 'folder', path: 'data', name: 'data', file_count: 1 },
    ]);
    expect(textOf(result)).toContain('Languages: TypeScript 5');
  });

  test('overview: a long README is cut at 6,000 characters and says so; a symlinked one is followed', async () => {
    await seedRepository(world.index, { id: 11, fullName: 'octo/docs', files: { 'readme.MD': 'x'.repeat(9000), 'README.rst': 'rst' } });
    const long = ok<RepositoryOverviewOutput>(await call(client, 'repository_overview', { repository: 'octo/docs' }));
    expect(long.readme).toEqual({ path: 'readme.MD', content: 'x'.repeat(6000), truncated: true, total_chars: 9000 });
    await seedRepository(world.index, {
      id: 12,
      fullName: 'octo/linked',
      files: { 'README.md': { kind: 'symlink', target: 'docs/README.md', content: 'docs/README.md' }, 'docs/README.md': '# Real\n' },
    });
    expect(ok<RepositoryOverviewOutput>(await call(client, 'repository_overview', { repository: 'octo/linked' })).readme).toMatchObject({ path: 'docs/README.md', content: '# Real\n' });
    await seedRepository(world.index, { id: 13, fullName: 'octo/bare', files: { 'main.go': 'package main\n' } });
    const bare = await call(client, 'repository_overview', { repository: 'octo/bare' });
    expect(ok<RepositoryOverviewOutput>(bare).readme).toBeNull();
    expect(textOf(bare)).toContain('No README at the root.');
  });

  test('state of every readable repository; the ones not indexed yet are queued once', async () => {
    const result = await call(client, 'repositories_state', {});
    const out = ok<RepositoriesStateOutput>(result);
    expect(out.repositories.map((r) => [r.repository, r.status, r.indexed])).toEqual([
      ['octo/api', 'ready', true],
      ['octo/broken', 'failed', false],
      ['octo/fresh', 'not_indexed', false],
      ['octo/pending', 'indexing', false],
      ['octo/web', 'ready', true],
    ]);
    expect(out.repositories[0]).toMatchObject({ commit: commitSha('octo/api@1'), file_count: 19, indexed_at: '2025-01-02T03:04:05.000Z', pending: false, backfill_queued: false });
    expect(out.repositories[1]).toMatchObject({ last_error: 'GITHUB_NOT_FOUND: GitHub no longer has this commit or repository', backfill_queued: true });
    expect(JSON.stringify(result)).not.toMatch(/ghe\.internal|github-source\.js|\bat GitHubSource/);
    expect(out.repositories[3]).toMatchObject({ pending: true, pending_commit: commitSha('pending@1'), backfill_queued: false });
    const events = world.publisher.events as BackfillEvent[];
    expect(events.map((e) => [e.repository.fullName, e.kind, e.reason, e.ref])).toEqual([
      ['octo/broken', 'backfill', 'state_query', 'refs/heads/main'],
      ['octo/fresh', 'backfill', 'state_query', 'refs/heads/main'],
    ]);
    expect(textOf(result)).toMatch(/octo\/fresh: not indexed yet \(nothing of main is indexed yet\)\. It is now queued for indexing/);
    const again = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', { repositories: ['octo/fresh'] }));
    expect(again.repositories[0]!.message).toMatch(/already queued/);
    expect(world.publisher.events).toHaveLength(2);
  });

  test('state of named repositories: unknown ones say how to index them, without inventing an id', async () => {
    const out = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', { repositories: ['https://github.com/octo/web', 'someone/else', 'OCTO/API'] }));
    expect(out.repositories.map((r) => [r.repository, r.status])).toEqual([
      ['octo/web', 'ready'],
      ['someone/else', 'unknown'],
      ['octo/api', 'ready'],
    ]);
    expect(out.repositories[1]!.message).toMatch(/gitdex has never received an event for it\. To index it, run `gitdex index someone\/else`/);
    expect(world.publisher.events).toHaveLength(0);
    expect(failed(await call(client, 'repositories_state', { repositories: ['not a name'] })).text).toMatch(/is not "owner\/name"/);
  });

  test('a repository not indexed yet answers so, and queues it; a failed publish says what to do', async () => {
    const error = failed(await call(client, 'read_file', { repository: 'octo/fresh', path: 'README.md' }));
    expect(error.code).toBe('NOT_INDEXED');
    expect(error.text).toBe('octo/fresh (main) is not indexed yet. It is now queued for indexing: try again in a minute (repositories_state shows progress).');
    expect(world.publisher.events).toHaveLength(1);
    world.publisher.failing = true;
    const broken = failed(await call(client, 'list_files', { repository: 'octo/broken' }));
    expect(broken.text).not.toMatch(/ghe\.internal|github-source\.js/);
    expect(broken.text).toMatch(
      /the last attempt failed: GITHUB_NOT_FOUND: GitHub no longer has this commit or repository\)\. Queuing it for indexing failed just now; try again shortly, or run `gitdex index octo\/broken`/,
    );
    const silent = await connectInMemory(resolveDeps({ index: world.index }));
    expect(failed(await call(silent.client, 'repository_overview', { repository: 'octo/fresh' })).text).toMatch(/This server cannot queue indexing; run `gitdex index octo\/fresh`/);
    await silent.close();
  });

  test('suggest_paths: typos, partial and misplaced paths, best first, within limit', async () => {
    const suggest = async (query: string, limit?: number) => ok<SuggestPathsOutput>(await call(client, 'suggest_paths', { repository: 'octo/api', query, ...(limit ? { limit } : {}) }));
    expect((await suggest('src/utils/hepers.ts')).suggestions[0]).toMatchObject({ path: 'src/utils/helpers.ts', reason: 'typo' });
    expect((await suggest('src/serv')).suggestions[0]!.path).toMatch(/^src\/server\//);
    expect((await suggest('http_server.ts')).suggestions[0]).toMatchObject({ path: 'src/server/http-server.ts', reason: 'style' });
    expect((await suggest('lib/routes.ts')).suggestions[0]!.path).toBe('src/server/routes.ts');
    expect((await suggest('https://github.com/octo/api/blob/main/docs/gude.md')).suggestions[0]!.path).toBe('docs/guide.md');
    const limited = await suggest('s', 2);
    expect(limited.suggestions).toHaveLength(2);
    expect((await suggest('zzzzqqqq')).suggestions).toEqual([]);
    expect(failed(await call(client, 'suggest_paths', { repository: 'octo/api', query: 'x', limit: 51 })).text).toMatch(/limit: a whole number from 1 to 50 \(got 51\)/);
  });
});
