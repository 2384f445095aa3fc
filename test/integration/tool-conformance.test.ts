import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runGitdex, type RunningGitdex } from '../../services/gitdex/src/run';
import { commitFiles, makeTempRoot, removeTempRoot, renamePath } from '../github-standin/fixture-repos';
import { createSampleRepo } from '../github-standin/sample-repo';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { gitHead } from '../support/git-truth';

const SECRET = 'conformance-secret';
const REPO = 'conf/sample';

/** Every tool, every kind of answer: the same calls go to both deployments. */
const CALLS: [string, Record<string, unknown>][] = [
  ['repositories_state', {}],
  ['repositories_state', { repositories: [REPO, 'conf/unknown'] }],
  ['repository_overview', { repository: REPO }],
  ['list_files', { repository: REPO }],
  ['list_files', { repository: REPO, depth: 3 }],
  ['list_files', { repository: REPO, folder: 'src', limit: 2 }],
  ['list_files', { repository: REPO, folder: 'many', limit: 7 }],
  ['list_files', { repository: REPO, folder: 'no/such/folder' }],
  ['read_file', { repository: REPO, path: 'README.md' }],
  ['read_file', { repository: REPO, path: '/src/index.ts', start_line: 1, end_line: 1 }],
  ['read_file', { repository: REPO, path: 'big.txt', start_line: 5, end_line: 900 }],
  ['read_file', { repository: REPO, path: 'assets/logo.bin' }],
  ['read_file', { repository: REPO, path: 'link-to-readme' }],
  ['read_file', { repository: REPO, path: 'vendor/lib' }],
  ['read_file', { repository: REPO, path: 'docs/with space/naïve café.md' }],
  ['read_file', { repository: REPO, path: 'src/deep/nested/module.ts' }],
  ['read_file', { repository: REPO, path: 'src/deep/nested/modul.ts' }],
  ['read_file', { repository: REPO, path: 'README.md', start_line: 9, end_line: 3 }],
  ['read_file', { repository: REPO, path: '../etc/passwd' }],
  ['read_file', { repository: 'conf/unknown', path: 'README.md' }],
  ['suggest_paths', { repository: REPO, query: 'modul' }],
  ['suggest_paths', { repository: REPO, query: 'READ' }],
  ['suggest_paths', { repository: REPO, query: 'many/Item_12' }],
  ['suggest_paths', { repository: REPO, query: 'ファイル' }],
  ['search_code', { repository: REPO, query: 'module' }],
  ['search_code', { repository: REPO, query: '^export \\w+', regex: true, path: 'src/**' }],
  ['search_code', { query: 'README', context_lines: 0 }],
  ['search_code', { repository: REPO, query: '(unclosed', regex: true }],
];

describe('tool conformance: Kafka + Elasticsearch and the embedded SQLite mode answer alike', () => {
  let root: string;
  let dataDir: string;
  let standIn: GitHubStandIn;
  let engines: RunningGitdex;
  let embedded: RunningGitdex;
  const prefix = uniqueName('conf').replace(/-/g, '');

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-conf-');
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-conf-data-'));
    standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000 } });
    const log = createLogger({ level: 'silent' });
    const common = { PORT: '0', GITHUB_API_URL: standIn.url, GITHUB_WEBHOOK_SECRETS: SECRET };
    engines = await runGitdex(
      loadEnv({
        ...common,
        KAFKA_BROKERS: engineEndpoints().kafkaBrokers,
        ELASTICSEARCH_URL: engineEndpoints().elasticsearchUrl,
        ELASTICSEARCH_INDEX_PREFIX: prefix,
        KAFKA_TOPIC: uniqueName('conf'),
        KAFKA_GROUP_ID: uniqueName('conf'),
      }),
      'all',
      log,
    );
    embedded = await runGitdex(loadEnv({ ...common, GITDEX_DATA_DIR: dataDir }), 'all', log);
  });
  afterAll(async () => {
    await engines?.close();
    await embedded?.close();
    await standIn.close();
    await fetch(`${engineEndpoints().elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' });
    await removeTempRoot(root);
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One push, delivered to both deployments as GitHub would deliver it to two webhooks. */
  async function pushToBoth(): Promise<void> {
    standIn.configure({ webhookUrl: `${engines.url}/webhooks/github` });
    const { payload, delivery } = await standIn.push('conf', 'sample', { ref: 'refs/heads/main' });
    expect(delivery.status).toBe(202);
    standIn.configure({ webhookUrl: `${embedded.url}/webhooks/github` });
    expect((await standIn.deliver('push', payload)).status).toBe(202);
  }

  async function waitForBoth(commit: string): Promise<void> {
    for (const running of [engines, embedded]) {
      for (let i = 0; ; i += 1) {
        const state = (await (await fetch(`${running.url}/v1/repositories?repositories=${REPO}`)).json()) as { repositories: { commit: string | null }[] };
        if (state.repositories[0]?.commit === commit) break;
        if (i > 600) throw new Error(`${running.url} did not index ${commit}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async function answers(running: RunningGitdex): Promise<unknown[]> {
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    try {
      const results = [];
      for (const [name, args] of CALLS) results.push({ call: [name, args], result: await client.callTool({ name, arguments: args }) });
      return results;
    } finally {
      await client.close();
    }
  }

  // Only the time of indexing (and so the push-to-served lag) may differ between two deployments (also inside opaque cursors).
  const times = (text: string) =>
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\d+(\.\d+)? ?(s|m|h|d|ms) ago/g, '<age>')
      .replace(/"lag_ms":\d+/g, '"lag_ms":"<lag>"');
  const normalise = (value: unknown) =>
    JSON.parse(times(JSON.stringify(value).replace(/eyJ[A-Za-z0-9_-]+/g, (cursor) => `cursor(${times(Buffer.from(cursor, 'base64url').toString('utf8')).replace(/["\\]/g, '')})`))) as unknown;

  it('gives byte-for-byte the same answers to every tool, before and after a push', async () => {
    const repo = await createSampleRepo(root, 'conf', 'sample');
    await commitFiles(
      repo.dir,
      {
        'big.txt': Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
        ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`many/Item_${i}.ts`, `export const item${i} = ${i};\n`])),
      },
      'more',
    );
    await pushToBoth();
    await waitForBoth(gitHead(repo.dir, 'main'));
    const [onEngines, onEmbedded] = [await answers(engines), await answers(embedded)];
    for (let i = 0; i < CALLS.length; i += 1) expect(normalise(onEmbedded[i])).toEqual(normalise(onEngines[i]));

    await renamePath(repo.dir, 'src/deep/nested/module.ts', 'src/module.ts');
    await commitFiles(repo.dir, { 'README.md': '# Hello again\n', 'many/Item_3.ts': null }, 'after');
    await pushToBoth();
    await waitForBoth(gitHead(repo.dir, 'main'));
    const [afterEngines, afterEmbedded] = [await answers(engines), await answers(embedded)];
    for (let i = 0; i < CALLS.length; i += 1) expect(normalise(afterEmbedded[i])).toEqual(normalise(afterEngines[i]));
    // The calls really saw the push (moved file suggested, content changed).
    expect(JSON.stringify(afterEngines)).toContain('src/module.ts');
    expect(JSON.stringify(afterEngines)).toContain('Hello again');
  });
});
