import { execFile, spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, indexRef } from '@gitdex/indexer';
import type { IndexStore } from '@gitdex/ports';
import { createReaderApp, resolveDeps } from '@gitdex/reader';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { repositoryFromPackages } from '../support/multi-package-repo';
import { repositoryDocumentOf } from '../support/repository-document';

const PACKAGES = ['pino', 'fuse.js', 'toad-cache', 'tar-stream', 'retry'];
const SCRIPT = join(__dirname, '..', 'python', 'read_every_file.py');

/** The official Python MCP SDK, installed with pip when it is not there yet. */
function ensurePythonSdk(): void {
  if (spawnSync('python3', ['-c', 'import mcp']).status === 0) return;
  const install = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', 'mcp'], { encoding: 'utf8' });
  if (spawnSync('python3', ['-c', 'import mcp']).status !== 0) throw new Error(`the Python MCP SDK could not be installed (pip install mcp): ${install.stderr}`);
}

interface Report {
  listed: number;
  equal: number;
  how: Record<string, number>;
  differences: { path: string; how: string; got: number; want: number }[];
  paths: string[];
  calls: Record<string, number>;
}

function runClient(url: string, repository: string, dir: string, commit: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile('python3', [SCRIPT, url, repository, dir, commit], { maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`python client failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as Report);
    });
  });
}

describe.each(['elasticsearch', 'sqlite'] as const)('an independent client (the Python MCP SDK) reads every file of a real multi-package repository (%s)', (engine) => {
  let root: string;
  let standIn: GitHubStandIn;
  let index: IndexStore;
  let server: Server;
  let repo: { dir: string; sha: string };

  beforeAll(async () => {
    ensurePythonSdk();
    root = await makeTempRoot('gitdex-python-client-');
    repo = await repositoryFromPackages(root, 'acme', 'packages', PACKAGES);
    standIn = await createGitHubStandIn({ root, rateLimit: { limit: 1_000_000 } });
    index =
      engine === 'elasticsearch'
        ? new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: uniqueName('py').replace(/-/g, '') })
        : new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    const source = new GitHubSource({ baseUrl: standIn.url });
    const repository = (await source.repositoryByName('acme/packages'))!;
    const head = (await source.head(repository, 'main'))!;
    await index.putRepository(repositoryDocumentOf(repository));
    await indexRef({ index, source, options: { ...DEFAULT_INDEX_REF_OPTIONS, maxFileBytes: 4 * 1024 * 1024 }, now: () => new Date() }, { repository, ref: 'refs/heads/main', head });
    const app = createReaderApp(resolveDeps({ index }));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await index?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  it('lists exactly git ls-files and reads each file equal to git show, by lines, by bytes and as base64', async () => {
    const { port } = server.address() as AddressInfo;
    const report = await runClient(`http://127.0.0.1:${port}/mcp`, 'acme/packages', repo.dir, repo.sha);
    const tracked = spawnSync('git', ['-C', repo.dir, 'ls-files', '-z'], { encoding: 'utf8' }).stdout.split('\0').filter(Boolean).sort();
    expect(report.paths).toEqual([...tracked].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(report.differences).toEqual([]);
    expect(report.equal).toBe(tracked.length);
    // The repository holds all three kinds of reads: plain text, long minified lines, binaries.
    expect(report.how.lines).toBeGreaterThan(100);
    expect(report.how.bytes).toBeGreaterThan(0);
    expect(report.how.base64).toBeGreaterThan(0);
    process.stdout.write(`python client (${engine}): ${report.equal}/${report.listed} files equal to git show; ${JSON.stringify(report.how)}; calls ${JSON.stringify(report.calls)}\n`);
  });
});
