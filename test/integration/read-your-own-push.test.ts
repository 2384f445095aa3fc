import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ChangesOutput, ReadFileOutput } from '@gitdex/contracts';
import { composeIndex, connectMcpServer, resolveDeps, type ReaderDeps } from '@gitdex/reader';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { gitHead } from '../support/git-truth';
import { startGitdexProcess, type GitdexProcess } from '../support/gitdex-process';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';

/** Resolves with the URI of the next notifications/resources/updated. */
function nextUpdate(client: Client): Promise<string> {
  return new Promise((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => resolve(notification.params.uri)));
}

const readArgs = (repository: string, path: string, min_commit: string, wait_ms = 10_000) => ({ name: 'read_file', arguments: { repository, path, min_commit, wait_ms } });

describe('read your own push: webhook → Kafka → indexer → Elasticsearch, read through the reader', () => {
  let p: Pipeline;
  let deps: ReaderDeps;
  let client: Client;
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    p = await startPipeline();
    deps = resolveDeps({ index: composeIndex(p.index), waitPollMs: 50 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = await connectMcpServer(deps, serverSide, { transport: 'memory' });
    closeServer = () => server.close();
    client = new Client({ name: 'own-push', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await closeServer?.();
    await p?.close();
  });

  it('a read with min_commit right after the push answers the pushed content; the subscription hears of it; nothing is left behind', async () => {
    const repo = await createRepo(p.root, 'acme', 'own', { 'VERSION.txt': 'v1\n' });
    const id = await p.standIn.repoId('acme', 'own');
    await p.standIn.push('acme', 'own', { ref: MAIN });
    await p.waitForCommit(id, MAIN, gitHead(repo.dir, 'main'));

    await client.subscribeResource({ uri: 'gitdex://acme/own' });
    const update = nextUpdate(client);
    // Two commits in one push: the first is served as part of the second (the push's commit list).
    const middle = await commitFiles(repo.dir, { 'VERSION.txt': 'v2\n' }, 'v2');
    const head = await commitFiles(repo.dir, { 'VERSION.txt': 'v3\n', 'NEW.txt': 'new\n' }, 'v3');
    await p.standIn.push('acme', 'own', { ref: MAIN });
    const read = await client.callTool(readArgs('acme/own', 'VERSION.txt', head));
    const out = read.structuredContent as ReadFileOutput;
    expect(out.content).toBe('v3');
    expect(out.freshness).toMatchObject({ commit: head, pending: false });
    expect(out.freshness.stale).toBeUndefined();
    expect(out.freshness.lag_ms).toEqual(expect.any(Number));
    expect(out.freshness.served_at).toEqual(expect.any(String));
    expect(await update).toBe('gitdex://acme/own');

    const byMiddle = (await client.callTool(readArgs('acme/own', 'NEW.txt', middle))).structuredContent as ReadFileOutput;
    expect(byMiddle).toMatchObject({ content: 'new', freshness: { commit: head } });
    const state = (await p.index.getRefState(id, MAIN))!;
    expect(state.recentCommits).toContain(middle);
    expect(state.history?.[0]).toMatchObject({ commitSha: head, changedPaths: expect.arrayContaining(['NEW.txt', 'VERSION.txt']), changedCount: 2 });

    await client.unsubscribeResource({ uri: 'gitdex://acme/own' });
    expect(deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  it('a wait that runs out is the stale answer of what is served, never an error', async () => {
    const late = 'f'.repeat(40);
    const read = await client.callTool(readArgs('acme/own', 'VERSION.txt', late, 300));
    expect(read.isError).toBeFalsy();
    expect((read.structuredContent as ReadFileOutput).freshness).toMatchObject({ stale: true, wanted_commit: late, pending: false });
    expect(deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });
});

describe('read your own push: the single process on embedded SQLite, over HTTP', () => {
  const SECRET = 'own-push-webhook-secret';
  let root: string;
  let dataDir: string;
  let standIn: GitHubStandIn;
  let gitdex: GitdexProcess;

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-own-push-');
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-own-push-data-'));
    standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000 } });
    gitdex = await startGitdexProcess({ GITDEX_DATA_DIR: dataDir, GITHUB_API_URL: standIn.url, GITHUB_WEBHOOK_SECRETS: SECRET, GITDEX_WAIT_POLL_MS: '50' });
    standIn.configure({ webhookUrl: `${gitdex.url}/webhooks/github` });
  });
  afterAll(async () => {
    await gitdex?.kill();
    await standIn?.close();
    if (root) await removeTempRoot(root);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const waiters = async () => Number(/^gitdex_reader_waiters (\d+)/m.exec(await (await fetch(`${gitdex.url}/metrics`)).text())?.[1] ?? NaN);

  it('push then read with min_commit over MCP, a subscription notified, the changes feed, and nothing left when the client ends its session', async () => {
    const repo = await createRepo(root, 'solo', 'own', { 'VERSION.txt': 'v1\n' });
    await standIn.push('solo', 'own', { ref: MAIN });
    // The first index of a repository gitdex never saw: nothing to wait on yet, so poll (hang guard only).
    for (let tries = 0; tries < 600; tries += 1) {
      const res = await fetch(`${gitdex.url}/v1/repositories/solo/own/files/VERSION.txt`);
      if (res.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const feed = (await (await fetch(`${gitdex.url}/v1/repositories/solo/own/changes`)).json()) as ChangesOutput;
    expect(feed.cursor).toBe(gitHead(repo.dir, 'main'));

    const transport = new StreamableHTTPClientTransport(new URL(`${gitdex.url}/mcp`));
    const client = new Client({ name: 'own-push-http', version: '1.0.0' });
    await client.connect(transport);
    await client.subscribeResource({ uri: 'gitdex://solo/own' });
    // The SDK client opens its GET stream after initialize: give it the moment it takes (hang guard only).
    for (let tries = 0; tries < 100 && (await waiters()) < 1; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const update = nextUpdate(client);
    const longPoll = fetch(`${gitdex.url}/v1/repositories/solo/own/changes?since=${feed.cursor}&wait_ms=10000`).then(async (res) => (await res.json()) as ChangesOutput);

    const head = await commitFiles(repo.dir, { 'VERSION.txt': 'v2\n' }, 'v2');
    await standIn.push('solo', 'own', { ref: MAIN });
    const read = await client.callTool(readArgs('solo/own', 'VERSION.txt', head));
    expect((read.structuredContent as ReadFileOutput).content).toBe('v2');
    expect(await update).toBe('gitdex://solo/own');
    const changes = await longPoll;
    expect(changes.changes).toEqual([expect.objectContaining({ ref: MAIN, sha: head, paths: ['VERSION.txt'], paths_complete: true })]);
    expect(changes.changes[0]!.lag_ms).toEqual(expect.any(Number));

    const rest = await fetch(`${gitdex.url}/v1/repositories/solo/own/files/VERSION.txt?min_commit=${head}&wait_ms=5000`);
    expect(((await rest.json()) as ReadFileOutput).content).toBe('v2');

    await transport.terminateSession();
    await client.close();
    for (let tries = 0; tries < 100 && (await waiters()) > 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await waiters()).toBe(0);
  });
});
