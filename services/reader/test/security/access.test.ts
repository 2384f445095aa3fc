import type { RepositoriesStateOutput, SearchCodeOutput } from '@gitdex/contracts';
import { patternMatches, scopedAccess } from '../../src/access';
import { repositoryDocument } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf, type ToolResult } from '../support/mcp-client';
import { callsBetween, countingIndex, depsFor, scrub, serve, toTwin, twin, type Served } from './helpers';
import { ACME_PRIVATE, CANARY, createSecurityWorld, leaks, mayRead, PRINCIPALS, PUBLIC, TOKENS, UNINDEXED_PRIVATE, VAULT, type Caller, type SecurityWorld } from './world';

describe('repository patterns', () => {
  test.each<[string, string, boolean]>([
    ['*', 'anyone/anything', true],
    ['acme/*', 'acme/tools', true],
    ['acme/*', 'ACME/Tools', true],
    ['ACME/*', 'acme/tools', true],
    ['acme/*', 'acme-evil/tools', false],
    ['acme/*', 'acmex/tools', false],
    ['acme/*', 'acme/', false],
    ['acme/*', 'acme/a/b', false],
    ['acme/tools', 'acme/tools', true],
    ['acme/tools', 'Acme/TOOLS', true],
    ['acme/tools', 'acme/tools2', false],
    ['acme/tools', 'acme/tool', false],
    ['acme', 'acme/tools', false],
    ['*/tools', 'acme/tools', false],
    ['', 'acme/tools', false],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(patternMatches(pattern, name)).toBe(expected);
  });

  test('scopedAccess: public for everyone, private only through a pattern', () => {
    const privateRepo = { ...repositoryDocument({ id: 1, fullName: 'acme/secret' }), private: true };
    const publicRepo = repositoryDocument({ id: 2, fullName: 'octo/open' });
    expect(scopedAccess(publicRepo, null)).toBe(true);
    expect(scopedAccess(publicRepo, { id: 'x', repositories: ['nobody/*'] })).toBe(true);
    expect(scopedAccess(privateRepo, null)).toBe(false);
    expect(scopedAccess(privateRepo, { id: 'x' })).toBe(false);
    expect(scopedAccess(privateRepo, { id: 'x', repositories: 'acme/*' })).toBe(false);
    expect(scopedAccess(privateRepo, { id: 'x', repositories: [42, 'acme/*'] })).toBe(true);
    expect(scopedAccess(privateRepo, { id: 'x', repositories: ['octo/*'] })).toBe(false);
  });
});

const CALLERS = Object.keys(PRINCIPALS) as Caller[];
const PRIVATE_INDEXED = [ACME_PRIVATE, VAULT];

/** The same call for every tool, on one repository. */
const TOOL_CALLS: [string, (repository: string) => Record<string, unknown>][] = [
  ['read_file', (repository) => ({ repository, path: 'src/index.ts' })],
  ['read_file', (repository) => ({ repository, path: `https://github.com/${repository}/blob/main/README.md#L1-L2` })],
  ['list_files', (repository) => ({ repository })],
  ['list_files', (repository) => ({ repository, folder: 'docs', depth: 3 })],
  ['repository_overview', (repository) => ({ repository })],
  ['suggest_paths', (repository) => ({ repository, query: 'index' })],
  ['repositories_state', (repository) => ({ repositories: [repository] })],
  ['search_code', (repository) => ({ repository, query: 'index' })],
  ['search_code', (repository) => ({ repositories: [repository], query: 'CANARY', regex: true })],
  // A private repository's pull requests are as invisible as the repository.
  ['read_file', (repository) => ({ repository, path: 'src/index.ts', ref: 'pull/3' })],
  ['read_file', (repository) => ({ repository, path: `https://github.com/${repository}/pull/3/files/README.md` })],
  ['list_files', (repository) => ({ repository, ref: 'refs/pull/3/head' })],
  ['repository_overview', (repository) => ({ repository: `https://github.com/${repository}/pull/3` })],
  ['search_code', (repository) => ({ repository, query: 'CANARY', refs: ['main', 'pull/*'] })],
  ['find_symbol', (repository) => ({ repository, name: 'start' })],
  ['find_symbol', (repository) => ({ repositories: [repository], name: 'CANARY*' })],
  ['file_outline', (repository) => ({ repository, path: 'src/index.ts' })],
  ['file_outline', (repository) => ({ repository, path: 'src/index.ts', ref: 'pull/3' })],
  ['find_references', (repository) => ({ repository, name: 'start' })],
  ['find_references', (repository) => ({ repositories: [repository], name: 'CANARY' })],
  // History: commits whose messages and authors hold the private repository's canary.
  ['list_commits', (repository) => ({ repository })],
  ['list_commits', (repository) => ({ repository, path: 'src', author: 'a' })],
];

describe('MCP: what each token reads, and what it never sees', () => {
  let world: SecurityWorld;
  beforeAll(async () => {
    world = await createSecurityWorld();
  });

  describe.each(CALLERS)('%s', (caller) => {
    const principal = PRINCIPALS[caller];

    test('repositories_state lists the public repositories and exactly the private ones it may read', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      const state = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', {}));
      const expected = [...PUBLIC, ...[ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE].filter((r) => mayRead(caller, r))].sort();
      expect(state.repositories.map((r) => r.repository).sort()).toEqual(expected);
      expect(state.omitted).toBe(0);
      await close();
    });

    test.each(PRIVATE_INDEXED)('every tool on %s: readable with a matching pattern, else the very answer of a repository that does not exist', async (repository) => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      for (const [tool, args] of TOOL_CALLS) {
        const real = await call(client, tool, args(repository));
        const upper = await call(client, tool, args(repository.toUpperCase()));
        if (mayRead(caller, repository)) {
          // Names are case-insensitive: the upper-case name reads the same repository.
          expect({ tool, error: real.isError ?? false, upper: upper.isError ?? false }).toEqual({ tool, error: false, upper: false });
          continue;
        }
        // A fresh server for the twin: the same backfill memory as the first call had.
        const other = await connectInMemory(depsFor(world), principal);
        const ghost = await call(other.client, tool, args(twin(repository)));
        await other.close();
        expect({ tool, answer: scrub(JSON.stringify(real), repository) }).toEqual({ tool, answer: scrub(JSON.stringify(ghost), repository) });
        expect(leaks(JSON.stringify(real), JSON.stringify(args(repository)), caller)).toEqual([]);
        expect(leaks(JSON.stringify(upper), JSON.stringify(args(repository)), caller)).toEqual([]);
        if (real.isError) expect(failed(real).suggestions).toEqual([]);
      }
      await close();
    });

    test.each(PRIVATE_INDEXED)('every tool on %s, just read by another token: the index round trips of a repository that does not exist (no timing oracle)', async (repository) => {
      if (mayRead(caller, repository)) return;
      // One process for both callers: whatever it keeps between calls (read hints, caches) is shared as in production.
      const counted = countingIndex(world.index);
      const deps = depsFor(world, { index: counted.index });
      const admin = await connectInMemory(deps, PRINCIPALS.adminToken);
      for (const [tool, args] of TOOL_CALLS) await call(admin.client, tool, args(repository));
      await admin.close();
      const { client, close } = await connectInMemory(deps, principal);
      // In upper case too: a name the index lacks must not cost a second, lower-cased lookup.
      for (const [tool, args] of TOOL_CALLS) {
        for (const name of [repository, repository.toUpperCase()]) {
          const before = counted.calls();
          await call(client, tool, args(name));
          const middle = counted.calls();
          await call(client, tool, args(toTwin(name, repository)));
          expect({ tool, name, calls: callsBetween(before, middle) }).toEqual({ tool, name, calls: callsBetween(middle, counted.calls()) });
        }
      }
      await close();
    });

    test('search_code over every repository finds private content only where the token covers it, and never counts the rest', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      for (const args of [
        { query: 'canary' },
        { query: 'CANARY-[a-z]+-[0-9a-f]{8}', regex: true },
        { query: 'canary', repositories: ['hidden-org/*', 'acme/*'] },
        { query: 'canary', repositories: ['*'] },
      ]) {
        const answer = ok<SearchCodeOutput>(await call(client, 'search_code', args));
        const searched = answer.repositories.map((r) => r.repository);
        for (const repository of PRIVATE_INDEXED)
          expect({ repository, searched: searched.includes(repository) }).toEqual({
            repository,
            searched: mayRead(caller, repository) && (args.repositories === undefined || args.repositories.some((p) => p === '*' || repository.startsWith(p.slice(0, -1)))),
          });
        const readableCanaryFiles = PRIVATE_INDEXED.filter((r) => searched.includes(r)).reduce((n, r) => n + answer.files.filter((f) => f.repository === r).length, 0);
        expect(answer.total_files).toBe(readableCanaryFiles);
        expect(answer.files.every((f) => searched.includes(f.repository))).toBe(true);
        expect(leaks(JSON.stringify(answer), '', caller)).toEqual([]);
      }
      await close();
    });

    test("a private repository's pull requests are listed only to a token that may read it, and no glob of refs reaches them otherwise", async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      const state = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', {}));
      for (const repository of PRIVATE_INDEXED) {
        const listed = state.repositories.find((r) => r.repository === repository);
        expect({ repository, pulls: listed?.pull_requests.map((p) => p.ref) }).toEqual({ repository, pulls: mayRead(caller, repository) ? ['pull/3'] : undefined });
      }
      expect(leaks(JSON.stringify(state), '', caller)).toEqual([]);
      const publicSearch = ok<SearchCodeOutput>(await call(client, 'search_code', { repository: 'acme/tools', query: 'CANARY', refs: ['**'] }));
      expect(publicSearch.repositories.map((r) => `${r.repository} ${r.ref}`)).toEqual(['acme/tools refs/heads/main']);
      expect(leaks(JSON.stringify(publicSearch), '', caller)).toEqual([]);
      await close();
    });

    test('a misspelt private name is suggested only to a token that may read it', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      for (const repository of PRIVATE_INDEXED) {
        const typo = toTwin(repository, repository);
        const answer = failed(await call(client, 'repository_overview', { repository: typo }));
        if (mayRead(caller, repository)) expect(answer.suggestions).toContain(repository);
        else {
          expect(answer.suggestions).toEqual([]);
          expect(answer.text.toLowerCase()).not.toContain(repository);
        }
      }
      await close();
    });

    test('"other repositories have this path" names only repositories it may read', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      const vaultOnly = failed(await call(client, 'read_file', { repository: 'acme/tools', path: 'vault-only-z8/keys.txt' }));
      const acmeOnly = failed(await call(client, 'read_file', { repository: 'octo/web', path: 'acme-only-k3/config.ts' }));
      expect(vaultOnly.suggestions.includes(VAULT)).toBe(mayRead(caller, VAULT));
      expect(acmeOnly.suggestions.includes(ACME_PRIVATE)).toBe(mayRead(caller, ACME_PRIVATE));
      expect(leaks(vaultOnly.text, 'vault-only-z8/keys.txt', caller)).toEqual([]);
      expect(leaks(acmeOnly.text, 'acme-only-k3/config.ts', caller)).toEqual([]);
      // A folder missing from a public repository: its suggestions come from that repository only.
      const folder = failed(await call(client, 'list_files', { repository: 'acme/tools', folder: 'vault-only-z8' }));
      expect(leaks(JSON.stringify(folder), 'vault-only-z8', caller)).toEqual([]);
      await close();
    });

    test('suggest_paths and list_files of a public repository never show private paths', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      for (const query of ['plan-zz9', 'vault-only', 'acme-only-k3/config.ts', 'keys.txt', 'config', 'space name/file with spaces.txt']) {
        const answer = await call(client, 'suggest_paths', { repository: 'acme/tools', query });
        expect(leaks(JSON.stringify(answer), query, caller)).toEqual([]);
      }
      const listing = await call(client, 'list_files', { repository: 'acme/tools', depth: 10, limit: 300 });
      expect(leaks(JSON.stringify(listing), '', caller)).toEqual([]);
      await close();
    });

    test('resources, completions and prompts: nothing of a repository it may not read', async () => {
      const { client, close } = await connectInMemory(depsFor(world), principal);
      for (const repository of PRIVATE_INDEXED) {
        const uri = `gitdex://${repository}/src/index.ts`;
        if (mayRead(caller, repository)) {
          const read = await client.readResource({ uri });
          expect(JSON.stringify(read)).toContain('CANARY');
        } else {
          const refused = await client.readResource({ uri }).then(
            () => 'read',
            (error: Error) => error.message,
          );
          const ghost = await client.readResource({ uri: `gitdex://${twin(repository)}/src/index.ts` }).then(
            () => 'read',
            (error: Error) => error.message,
          );
          expect(scrub(refused, repository)).toBe(scrub(ghost, repository));
        }
      }
      const values = async (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, name: string, value: string, context?: Record<string, string>) =>
        (await client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) })).completion.values;
      const template = { type: 'ref/resource' as const, uri: 'gitdex://{owner}/{repo}/{+path}' };
      const seen = [
        ...(await values({ type: 'ref/prompt', name: 'explore_repository' }, 'repository', '')),
        ...(await values({ type: 'ref/prompt', name: 'explore_repository' }, 'repository', 'hidden')),
        ...(await values({ type: 'ref/prompt', name: 'read_path' }, 'repository', 'acme/')),
        ...(await values(template, 'owner', '')),
        ...(await values(template, 'owner', 'h')),
        ...(await values(template, 'repo', '', { owner: 'acme' })),
        ...(await values(template, 'repo', 'v', { owner: 'hidden-org' })),
      ];
      for (const repository of [...PRIVATE_INDEXED, UNINDEXED_PRIVATE]) {
        const [owner, name] = repository.split('/') as [string, string];
        if (!mayRead(caller, repository)) expect(seen).not.toContain(repository);
        if (!mayRead(caller, repository)) expect(seen).not.toContain(name);
        if (mayRead(caller, repository)) expect(seen.some((v) => v === repository || v === name || v === owner)).toBe(true);
      }
      for (const repository of PRIVATE_INDEXED) {
        const [owner, name] = repository.split('/') as [string, string];
        const paths = [
          ...(await values(template, 'path', '', { owner, repo: name })),
          ...(await values(template, 'path', 'src/ind', { owner, repo: name })),
          ...(await values({ type: 'ref/prompt', name: 'read_path' }, 'path', 'READ', { repository })),
        ];
        if (!mayRead(caller, repository)) expect(paths).toEqual([]);
        else expect(paths.length).toBeGreaterThan(0);
      }
      const prompt = await client.getPrompt({ name: 'explore_repository', arguments: { repository: VAULT } });
      expect(JSON.stringify(prompt)).not.toContain(CANARY.vault);
      await close();
    });

    test('a private repository that is not indexed is queued only for a token that may read it', async () => {
      world.publisher.events.length = 0;
      const { client, close } = await connectInMemory(depsFor(world), principal);
      const named = ok<RepositoriesStateOutput>(await call(client, 'repositories_state', { repositories: [UNINDEXED_PRIVATE, twin(UNINDEXED_PRIVATE)] }));
      const overview = await call(client, 'repository_overview', { repository: UNINDEXED_PRIVATE });
      const queued = world.publisher.events.map((e) => e.repository.fullName);
      if (mayRead(caller, UNINDEXED_PRIVATE)) {
        expect(queued).toContain(UNINDEXED_PRIVATE);
        expect(named.repositories[0]!.status).toBe('not_indexed');
        expect(failed(overview).code).toBe('NOT_INDEXED');
      } else {
        expect(queued).toEqual([]);
        expect(scrub(JSON.stringify(named.repositories[0]), UNINDEXED_PRIVATE)).toBe(scrub(JSON.stringify(named.repositories[1]), UNINDEXED_PRIVATE));
        expect(failed(overview).code).toBe('REPOSITORY_NOT_FOUND');
      }
      await close();
    });
  });
});

describe('REST: the same rules on every route', () => {
  let world: SecurityWorld;
  let server: Served;
  beforeAll(async () => {
    world = await createSecurityWorld();
    server = await serve(depsFor(world));
  });
  afterAll(() => server.close());

  const authorization = (caller: Caller): Record<string, string> => (caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` });
  const get = async (caller: Caller, path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: authorization(caller) });
    return { status: response.status, text: await response.text() };
  };
  const routes = (repository: string) => [
    `/v1/repositories/${repository}`,
    `/v1/repositories/${repository}/tree`,
    `/v1/repositories/${repository}/tree/docs?depth=2`,
    `/v1/repositories/${repository}/files/src/index.ts`,
    `/v1/repositories/${repository}/files/README.md?start_line=1&end_line=2`,
    `/v1/repositories/${repository}/suggest?q=index`,
    `/v1/repositories?repository=${repository}`,
    `/v1/repositories/${repository}/search?q=canary`,
    `/v1/search?q=CANARY&regex=true&repositories=${repository}`,
    `/v1/repositories/${repository}/commits?path=src&limit=5`,
  ];

  test.each(CALLERS)('%s: readable private repositories answer 200 with their content; others answer as if they did not exist', async (caller) => {
    for (const repository of PRIVATE_INDEXED) {
      for (const route of routes(repository)) {
        const real = await get(caller, route);
        if (mayRead(caller, repository)) {
          expect({ route, status: real.status }).toEqual({ route, status: 200 });
          continue;
        }
        const ghost = await get(caller, route.replace(repository, twin(repository)));
        expect({ route, status: real.status, body: scrub(real.text, repository) }).toEqual({ route, status: ghost.status, body: scrub(ghost.text, repository) });
        expect(leaks(real.text, route, caller)).toEqual([]);
      }
    }
    const searched = JSON.parse((await get(caller, '/v1/search?q=canary&path=**/*.md&path=src/**')).text) as SearchCodeOutput;
    expect(leaks(JSON.stringify(searched), '', caller)).toEqual([]);
    expect(searched.files.length > 0).toBe(PRIVATE_INDEXED.some((r) => mayRead(caller, r)));
    expect(searched.files.every((f) => mayRead(caller, f.repository) && (f.path.endsWith('.md') || f.path.startsWith('src/')))).toBe(true);
    const all = JSON.parse((await get(caller, '/v1/repositories')).text) as RepositoriesStateOutput;
    expect(all.repositories.map((r) => r.repository).sort()).toEqual([...PUBLIC, ...[ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE].filter((r) => mayRead(caller, r))].sort());
    const hint = await get(caller, '/v1/repositories/acme/tools/files/vault-only-z8/keys.txt');
    expect(hint.status).toBe(404);
    expect(hint.text.includes(VAULT)).toBe(mayRead(caller, VAULT));
  });

  test('a wrong token is refused (401), never downgraded to anonymous; no token reads public repositories', async () => {
    const wrong = await fetch(`${server.url}/v1/repositories/acme/tools`, { headers: { authorization: `Bearer ${TOKENS.adminToken}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="gitdex"');
    const text = await wrong.text();
    expect(text).not.toContain(TOKENS.adminToken);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    for (const header of ['Basic YWRtaW46eA==', 'Bearer', 'Bearer a b', `bearer  ${TOKENS.adminToken} extra`]) {
      expect((await fetch(`${server.url}/v1/repositories`, { headers: { authorization: header } })).status).toBe(401);
    }
    expect((await fetch(`${server.url}/v1/repositories/acme/tools`)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/repositories/acme/tools`, { headers: { authorization: `bearer ${TOKENS.acmeToken}` } })).status).toBe(200);
  });

  test('with GITDEX_REQUIRE_AUTH every /mcp and /v1 call needs a token; health and the OpenAPI document do not', async () => {
    const strict = await serve(depsFor(world), { anonymous: false });
    expect((await fetch(`${strict.url}/v1/repositories/acme/tools`)).status).toBe(401);
    const mcp = await fetch(`${strict.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(401);
    expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    expect((await fetch(`${strict.url}/v1/repositories/acme/tools`, { headers: { authorization: `Bearer ${TOKENS.publicToken}` } })).status).toBe(200);
    expect((await fetch(`${strict.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${strict.url}/v1/openapi.json`)).status).toBe(200);
    await strict.close();
  });
});

test('MCP over HTTP: the token decides, end to end through the SDK client', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const world = await createSecurityWorld();
  const server = await serve(depsFor(world));
  const connect = async (token?: string) => {
    const client = new Client({ name: 'access-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} } }));
    return client;
  };
  const read = async (token: string | undefined, repository: string) => {
    const client = await connect(token);
    const result = (await client.callTool({ name: 'read_file', arguments: { repository, path: 'src/index.ts' } })) as ToolResult;
    await client.close();
    return result;
  };
  expect(textOf(await read(TOKENS.vaultToken, VAULT))).toContain(CANARY.vault);
  expect(textOf(await read(TOKENS.acmeToken, ACME_PRIVATE))).toContain(CANARY.acme);
  expect(failed(await read(TOKENS.acmeToken, VAULT)).code).toBe('REPOSITORY_NOT_FOUND');
  expect(failed(await read(undefined, ACME_PRIVATE)).code).toBe('REPOSITORY_NOT_FOUND');
  expect(failed(await read(TOKENS.publicToken, ACME_PRIVATE)).code).toBe('REPOSITORY_NOT_FOUND');
  await expect(connect('not-a-token-at-all')).rejects.toThrow(/-32001.*bearer token is not one this gitdex accepts/);
  await server.close();
});
