import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef } from '@gitdex/indexer';
import { createReaderApp, resolveDeps } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { ensurePythonSdk } from '../support/python-sdk';
import { repositoryDocumentOf } from '../support/repository-document';

const SCRIPT = join(__dirname, '..', 'python', 'subscribe_and_wait.py');

describe('an independent client (the Python MCP SDK) subscribes to a repository and hears of its new commit', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let server: Server;

  beforeAll(async () => {
    ensurePythonSdk();
    root = await makeTempRoot('gitdex-python-subscribe-');
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  it('resources/subscribe, then notifications/resources/updated when the ref serves the next commit', async () => {
    const repo = await createRepo(root, 'acme', 'subscribed', { 'README.md': 'one\n' });
    const source = new GitHubSource({ baseUrl: standIn.url });
    const repository = (await source.repositoryByName('acme/subscribed'))!;
    await index.putRepository(repositoryDocumentOf(repository));
    const indexHead = async () =>
      indexRef({ index, source, options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date() }, { repository, ref: 'refs/heads/main', head: (await source.head(repository, 'main'))! });
    await indexHead();
    const app = createReaderApp(resolveDeps({ index, waitPollMs: 50 }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

    const child = spawn('python3', [SCRIPT, url, 'gitdex://acme/subscribed'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('subscribed')) resolve();
      });
      void exited.then((code) => reject(new Error(`python client exited (${code}) before subscribing: ${err}`)));
    });
    await commitFiles(repo.dir, { 'README.md': 'two\n' }, 'two');
    await indexHead();
    expect(await exited).toBe(0);
    const report = JSON.parse(out.slice(out.indexOf('{'))) as { uri: string; capability: boolean };
    expect(report).toEqual({ uri: 'gitdex://acme/subscribed', capability: true });
  });
});
