import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { gitHead } from '../support/git-truth';
import { startGitdexProcess, type GitdexProcess } from '../support/gitdex-process';

const SECRET = 'crash-webhook-secret';

describe('single-process mode on embedded defaults', () => {
  let root: string;
  let dataDir: string;
  let standIn: GitHubStandIn;
  let gitdex: GitdexProcess | undefined;

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-crash-');
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-data-'));
    standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000 } });
  });
  afterAll(async () => {
    await gitdex?.kill();
    await standIn.close();
    await removeTempRoot(root);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () => ({ GITDEX_DATA_DIR: dataDir, GITHUB_API_URL: standIn.url, GITHUB_WEBHOOK_SECRETS: SECRET, GITHUB_TOKEN: 'crash-github-token' });

  it('loses no acknowledged delivery when killed with SIGKILL between acknowledging and indexing', async () => {
    gitdex = await startGitdexProcess(env());
    standIn.configure({ webhookUrl: `${gitdex.url}/webhooks/github` });
    // GitHub is slow, so deliveries are acknowledged long before they can be indexed.
    standIn.faults.add({ type: 'latency', ms: 3000 });
    const repos = await Promise.all(['one', 'two', 'three', 'four'].map((name) => createRepo(root, 'crash', name, { 'README.md': `# ${name}\n` })));
    for (const repo of repos) {
      const { delivery } = await standIn.push('crash', repo.name, { ref: 'refs/heads/main' });
      expect(delivery.status).toBe(202);
      await commitFiles(repo.dir, { 'src/later.ts': `export const name = '${repo.name}';\n` }, 'second');
      const second = await standIn.push('crash', repo.name, { ref: 'refs/heads/main' });
      expect(second.delivery.status).toBe(202);
    }
    const before = (await (await fetch(`${gitdex.url}/v1/repositories`)).json()) as { repositories: unknown[] };
    expect(before.repositories.filter((r) => (r as { indexed?: boolean }).indexed)).toHaveLength(0);
    await gitdex.kill('SIGKILL');
    standIn.faults.clear();

    gitdex = await startGitdexProcess(env());
    const url = gitdex.url;
    const deadline = Date.now() + 60_000;
    for (const repo of repos) {
      const head = gitHead(repo.dir, 'main');
      let answer: { repositories?: { commit?: string; status?: string }[] } = {};
      while (Date.now() < deadline) {
        answer = (await (await fetch(`${url}/v1/repositories?repositories=crash/${repo.name}`)).json()) as typeof answer;
        if (answer.repositories?.[0]?.commit === head) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(answer.repositories?.[0]).toMatchObject({ commit: head });
      const file = (await (await fetch(`${url}/v1/repositories/crash/${repo.name}/files/src/later.ts`)).json()) as { text?: string };
      expect(JSON.stringify(file)).toContain(`export const name = '${repo.name}';`);
    }
    const metrics = await (await fetch(`${url}/metrics`)).text();
    for (const name of ['gitdex_freshness_seconds_count', 'gitdex_indexer_events_total', 'gitdex_indexer_index_seconds_count', 'gitdex_github_rate_limit_remaining', 'gitdex_webhook_deliveries_total'])
      expect(metrics).toContain(name);
    // Each repository's src/later.ts is a distinct TypeScript blob, parsed once; its version's blame is stored with its commit.
    const count = (series: string) => Number(new RegExp(`^${series} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    expect(count('gitdex_indexer_symbol_blobs_total\\{status="parsed"\\}')).toBeGreaterThanOrEqual(repos.length);
    expect(count('gitdex_indexer_version_blames_total\\{outcome="stored"\\}')).toBeGreaterThanOrEqual(repos.length);
  });
});
