// Authorisation end to end: GitHub (the stand-in) → webhook → Kafka → indexer → Elasticsearch →
// the reader, configured from the environment exactly as the product does it (loadEnv, then
// readerOptions and readerHttpOptions of services/gitdex/src/run.ts). Public and private
// repositories, tokens scoped by owner and by name, visibility changes and a transfer out of a
// token's owner: each caller reads what its token allows and nothing else, over REST and MCP.
import { recordingLog } from '../support/recording-log';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { createReaderApp } from '@gitdex/reader';
import type { Adapters } from '../../services/gitdex/src/adapters';
import { readerHttpOptions, readerOptions } from '../../services/gitdex/src/run';
import { GitHubSource } from '@gitdex/github';
import { createBatchHandler, DEFAULT_INDEX_REF_OPTIONS, RefSelection } from '@gitdex/indexer';
import { createKafka, KafkaConsumer } from '@gitdex/kafka';
import { createRepo } from '../github-standin/fixture-repos';
import { kafkaBrokerList, uniqueName } from '../harness/engines';
import { gitHead } from '../support/git-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

jest.setTimeout(180_000);

const TOKENS = { acme: 'acme-team-token-5b2c9d7e1f', vault: 'vault-reader-token=+/77aa', ci: 'ci-token-all-0f1e2d3c4b5a' };
const CANARY = { acme: 'CANARY-integration-acme-51d2', vault: 'CANARY-integration-vault-9c0e' };
type Caller = 'anonymous' | keyof typeof TOKENS;
const CALLERS: Caller[] = ['anonymous', 'acme', 'vault', 'ci'];

describe('authorisation through the whole pipeline', () => {
  let p: Pipeline;
  let server: Server;
  let url: string;
  let strictServer: Server;
  let strictUrl: string;
  const ids: Record<string, number> = {};

  const listen = async (env: ReturnType<typeof loadEnv>) => {
    const log = createLogger({ level: 'silent' });
    const options = readerOptions(env, { index: p.index, publisher: p.publisher } as unknown as Adapters, log);
    const app = createReaderApp(options, { registry: new Registry(), ...readerHttpOptions(env) });
    const s: Server = await new Promise((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    return { server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
  };

  /**
   * Once the index's search sees a change, the reader answers by it within its metadata window
   * (it reuses a repository lookup for 100 ms: docs/reader.md); a second is ten such windows.
   */
  const readerSeesWithinItsWindow = (check: () => Promise<boolean>, what: string) => p.waitFor(check, what, 1_000);

  let consumer: KafkaConsumer;

  beforeAll(async () => {
    // The pipeline's own indexer reads GitHub without a token, which (as on GitHub) sees no
    // private repository: this test runs an indexer with one.
    p = await startPipeline({ indexer: false });
    consumer = new KafkaConsumer(createKafka({ brokers: kafkaBrokerList(), clientId: 'authorization-indexer' }), { topic: p.topic, groupId: uniqueName('authz'), partitions: 6, log: recordingLog() });
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    await consumer.start(
      createBatchHandler({
        index: p.index,
        source: new GitHubSource({ baseUrl: p.standIn.url, token: 'indexer-token-for-private-repositories', maxInlineWaitSeconds: 2 }),
        deadLetters: p.deadLetters,
        refs: new RefSelection(['default']),
        options: DEFAULT_INDEX_REF_OPTIONS,
        retry: { maxAttempts: 5, retryBudgetMs: 0, baseDelayMs: 100, maxDelayMs: 2000 },
        now: () => new Date(),
        log: quiet,
      }),
    );
    const repos = {
      'acme/open': await createRepo(p.root, 'acme', 'open', { 'README.md': '# Open\n', 'src/index.ts': 'export const open = true;\n' }),
      'acme/secret': await createRepo(p.root, 'acme', 'secret', { 'README.md': `# Secret\n${CANARY.acme}\n`, 'src/index.ts': `export const x = '${CANARY.acme}';\n` }),
      'vault-org/plans': await createRepo(p.root, 'vault-org', 'plans', { 'README.md': `# Plans\n${CANARY.vault}\n`, 'plans/only-here-q4.md': `${CANARY.vault}\n` }),
    };
    await p.standIn.setVisibility('acme', 'secret', true, { deliver: false });
    await p.standIn.setVisibility('vault-org', 'plans', true, { deliver: false });
    for (const [name, repo] of Object.entries(repos)) {
      const [owner, repoName] = name.split('/') as [string, string];
      ids[name] = await p.standIn.repoId(owner, repoName);
      await p.standIn.push(owner, repoName, { ref: 'refs/heads/main' });
      await p.waitForCommit(ids[name], 'refs/heads/main', gitHead(repo.dir, 'main'));
    }
    const tokens = `acme-team:${TOKENS.acme}=acme/*;vault-reader:${TOKENS.vault}=Vault-Org/Plans;ci:${TOKENS.ci}=*`;
    ({ server, url } = await listen(loadEnv({ HOST: '127.0.0.1', GITDEX_READER_TOKENS: tokens, GITDEX_READER_RATE_LIMIT: '0' })));
    ({ server: strictServer, url: strictUrl } = await listen(loadEnv({ HOST: '127.0.0.1', GITDEX_READER_TOKENS: tokens, GITDEX_REQUIRE_AUTH: 'true' })));
  });

  afterAll(async () => {
    for (const s of [server, strictServer]) {
      await new Promise<void>((resolve) => {
        s?.close(() => resolve());
        s?.closeAllConnections();
      });
    }
    await consumer?.stop().catch(() => undefined);
    await p?.close();
  });

  const headers = (caller: Caller): Record<string, string> => (caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` });
  const may = (caller: Caller, repository: string) =>
    repository === 'acme/open' || caller === 'ci' || (caller === 'acme' && repository.startsWith('acme/')) || (caller === 'vault' && repository === 'vault-org/plans');
  const get = async (base: string, caller: Caller, path: string) => {
    const response = await fetch(`${base}${path}`, { headers: headers(caller) });
    return { status: response.status, text: await response.text() };
  };
  const forbidden = (caller: Caller) => [...(may(caller, 'acme/secret') ? [] : [CANARY.acme, 'acme/secret']), ...(may(caller, 'vault-org/plans') ? [] : [CANARY.vault, 'vault-org', 'only-here-q4'])];

  test.each(CALLERS)('REST, %s: every route of a private repository answers 200 for a matching token, else exactly as for a repository that does not exist', async (caller) => {
    for (const repository of ['acme/secret', 'vault-org/plans']) {
      const ghost = repository.replace(/.$/, 'x');
      for (const route of ['', '/tree', '/tree/src', '/files/README.md', '/suggest?q=readme']) {
        const real = await get(url, caller, `/v1/repositories/${repository}${route}`);
        if (may(caller, repository)) {
          if (route !== '/tree/src' || repository === 'acme/secret') expect({ route, status: real.status }).toEqual({ route, status: 200 });
          continue;
        }
        const none = await get(url, caller, `/v1/repositories/${ghost}${route}`);
        expect({ route, status: real.status, body: real.text.replaceAll(repository, 'NAME') }).toEqual({ route, status: none.status, body: none.text.replaceAll(ghost, 'NAME') });
      }
    }
    const listed = JSON.parse((await get(url, caller, '/v1/repositories')).text) as { repositories: { repository: string }[] };
    expect(listed.repositories.map((r) => r.repository).sort()).toEqual(['acme/open', 'acme/secret', 'vault-org/plans'].filter((r) => may(caller, r)).sort());
    // "Other repositories have this path" only names readable ones.
    const hint = await get(url, caller, '/v1/repositories/acme/open/files/plans/only-here-q4.md');
    expect(hint.status).toBe(404);
    expect(hint.text.includes('vault-org/plans')).toBe(may(caller, 'vault-org/plans'));
    const suggest = JSON.parse((await get(url, caller, '/v1/repositories/acme/open/suggest?q=only-here-q4')).text) as { suggestions: { path: string }[] };
    expect(suggest.suggestions.map((s) => s.path).filter((path) => path.includes('only-here'))).toEqual([]);
    for (const text of forbidden(caller)) expect(JSON.stringify(listed)).not.toContain(text);
  });

  test.each(CALLERS)('MCP, %s: tools, resources and completions through the SDK client', async (caller) => {
    const client = new Client({ name: 'authorization-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: headers(caller) } }));
    const answers: string[] = [];
    for (const repository of ['acme/secret', 'vault-org/plans', 'acme/open']) {
      const read = await client.callTool({ name: 'read_file', arguments: { repository, path: 'README.md' } });
      answers.push(JSON.stringify(read));
      expect(read.isError ?? false).toBe(!may(caller, repository));
      const overview = await client.callTool({ name: 'repository_overview', arguments: { repository } });
      answers.push(JSON.stringify(overview));
      const resource = await client.readResource({ uri: `gitdex://${repository}/README.md` }).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
      answers.push(resource);
    }
    // Answers to questions that name no private repository: not a trace of one.
    const unprompted = [
      JSON.stringify(await client.callTool({ name: 'repositories_state', arguments: {} })),
      JSON.stringify(
        ((await client.callTool({ name: 'suggest_paths', arguments: { repository: 'acme/open', query: 'plans/only-here-q4.md' } })).structuredContent as { suggestions: unknown[] }).suggestions,
      ),
      JSON.stringify(await client.complete({ ref: { type: 'ref/prompt', name: 'explore_repository' }, argument: { name: 'repository', value: '' } })),
      JSON.stringify(await client.complete({ ref: { type: 'ref/resource', uri: 'gitdex://{owner}/{repo}/{+path}' }, argument: { name: 'owner', value: '' } })),
    ].join('\n');
    for (const marker of forbidden(caller)) expect(unprompted).not.toContain(marker);
    // Answers about a private repository by name may say the name back ("… is not indexed"); never its content.
    for (const canary of Object.values(CANARY)) if (forbidden(caller).includes(canary)) expect(answers.join('\n')).not.toContain(canary);
    await client.close();
  });

  test('a wrong token is 401, never anonymous; with GITDEX_REQUIRE_AUTH no token is 401 too', async () => {
    expect((await fetch(`${url}/v1/repositories/acme/open`, { headers: { authorization: 'Bearer not-a-token-1234567890' } })).status).toBe(401);
    expect((await get(url, 'anonymous', '/v1/repositories/acme/open')).status).toBe(200);
    expect((await get(strictUrl, 'anonymous', '/v1/repositories/acme/open')).status).toBe(401);
    expect((await get(strictUrl, 'acme', '/v1/repositories/acme/secret')).status).toBe(200);
    expect((await get(strictUrl, 'vault', '/v1/repositories/acme/secret')).status).toBe(404);
  });

  test('a repository made private stops answering anonymous callers; made public again, it answers', async () => {
    await p.standIn.setVisibility('acme', 'open', true, { deliver: true });
    await p.waitFor(async () => (await p.index.findRepositoryByName('acme/open'))?.private === true, 'acme/open to be private in the index');
    await readerSeesWithinItsWindow(async () => (await get(url, 'anonymous', '/v1/repositories/acme/open/files/README.md')).status === 404, 'acme/open to stop answering anonymous callers');
    expect((await get(url, 'vault', '/v1/repositories/acme/open/files/README.md')).status).toBe(404);
    expect((await get(url, 'acme', '/v1/repositories/acme/open/files/README.md')).status).toBe(200);
    await p.standIn.setVisibility('acme', 'open', false, { deliver: true });
    // As readers see it: they find a repository by name with a search, which sees the change once its refresh completed.
    await p.waitFor(async () => (await p.index.findRepositoryByName('acme/open'))?.private === false, 'acme/open to be public again');
    await readerSeesWithinItsWindow(async () => (await get(url, 'anonymous', '/v1/repositories/acme/open/files/README.md')).status === 200, 'acme/open to answer anonymous callers again');
  });

  test('a private repository transferred to another owner leaves the owner pattern that matched it', async () => {
    await p.standIn.rename('acme', 'secret', { newOwner: 'elsewhere', deliver: true });
    // As readers see it: they find a repository by name with a search, which sees the transfer only
    // once its refresh completed (the realtime get by id sees it a moment before, which raced here).
    await p.waitFor(async () => (await p.index.findRepositoryByName('elsewhere/secret'))?.repositoryId === ids['acme/secret'], 'the transfer to reach the index');
    await p.waitFor(async () => !(await p.index.findRepositoryByName('acme/secret')), 'the old name to leave the index');
    await readerSeesWithinItsWindow(async () => (await get(url, 'acme', '/v1/repositories/acme/secret/files/README.md')).status === 404, 'the old name to stop answering');
    expect((await get(url, 'acme', '/v1/repositories/elsewhere/secret/files/README.md')).status).toBe(404);
    const all = await get(url, 'acme', '/v1/repositories');
    expect(all.text).not.toContain(CANARY.acme);
    expect(all.text).not.toContain('elsewhere/secret');
    expect((await get(url, 'ci', '/v1/repositories/elsewhere/secret/files/README.md')).status).toBe(200);
  });
});
