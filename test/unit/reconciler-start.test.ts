// The reconciler as `npm start` runs it (loadEnv → runGitdex, embedded engines) in front of the
// GitHub stand-in: its first pass comes at start, not one interval later, and a pass that fails
// is said on /readyz (which stays ready), on /metrics and by `gitdex status`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { runGitdex, type RunningGitdex } from '../../services/gitdex/src/run';
import { statusCommand } from '../../services/gitdex/src/cli/status-command';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

const GITHUB_TOKEN = 'ghp_reconcilerStartToken0123456789';
/** An hour: a pass the test sees can only be the one at start. */
const INTERVAL = 3600;

interface Readyz {
  status: string;
  checks: Record<string, string>;
  notes?: { reconciler?: Record<string, unknown> };
  degraded?: string[];
}

describe('reconciler in the running product', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let id: number;
  const dirs: string[] = [];
  const running: RunningGitdex[] = [];

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-reconciler-start-');
    await createRepo(root, 'acme', 'turned-private', { 'README.md': '# hi\n' });
    standIn = await createGitHubStandIn({ root, token: GITHUB_TOKEN, rateLimit: { limit: 1_000_000 } });
    id = await standIn.repoId('acme', 'turned-private');
  });
  afterAll(async () => {
    for (const gitdex of running) await gitdex.close();
    await standIn.close();
    await removeTempRoot(root);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A data directory whose index already holds acme/turned-private as public (indexed before it was made private). */
  async function dataDirWithPublicRepository(): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'gitdex-reconciler-start-data-'));
    dirs.push(dataDir);
    const index = new SqliteIndexStore({ file: join(dataDir, 'index.sqlite') });
    await index.ensureReady();
    await index.putRepository({
      repositoryId: id,
      fullName: 'acme/turned-private',
      fullNameLower: 'acme/turned-private',
      defaultBranch: 'main',
      private: false,
      archived: false,
      htmlUrl: 'https://github.com/acme/turned-private',
      installationId: null,
      updatedAt: new Date().toISOString(),
      backfillRequestedAt: null,
    });
    await index.close();
    return dataDir;
  }

  async function start(dataDir: string, githubToken: string): Promise<RunningGitdex> {
    const env = loadEnv({ PORT: '0', HOST: '127.0.0.1', GITDEX_DATA_DIR: dataDir, GITHUB_API_URL: standIn.url, GITHUB_TOKEN: githubToken, GITDEX_RECONCILE_INTERVAL_SECONDS: String(INTERVAL) });
    const gitdex = await runGitdex(env, 'all', createLogger({ level: 'silent' }));
    running.push(gitdex);
    return gitdex;
  }

  /** Polls /readyz until the first pass has finished (a condition, not a duration: the deadline only ends a hang). */
  async function afterFirstPass(gitdex: RunningGitdex): Promise<{ code: number; body: Readyz }> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await fetch(`${gitdex.url}/readyz`);
      const body = (await response.json()) as Readyz;
      const note = body.notes?.reconciler;
      if (note && (note.lastSuccessAt !== null || note.lastFailureAt !== null)) return { code: response.status, body };
      if (Date.now() > deadline) throw new Error(`no reconciler pass finished within 20 s: ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function status(gitdex: RunningGitdex): Promise<string[]> {
    const lines: string[] = [];
    const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
    const env = loadEnv({ PORT: '0', GITDEX_DATA_DIR: 'unused', GITHUB_API_URL: standIn.url });
    await statusCommand({ env, adapters: gitdex.adapters, out }, { server: gitdex.url });
    return lines;
  }

  it('applies a visibility flip whose webhook was lost in the pass at start, and says the pass succeeded', async () => {
    await standIn.setVisibility('acme', 'turned-private', true, { deliver: false });
    const gitdex = await start(await dataDirWithPublicRepository(), GITHUB_TOKEN);

    const { code, body } = await afterFirstPass(gitdex);

    expect(await gitdex.adapters.index.getRepository(id)).toMatchObject({ private: true });
    expect(code).toBe(200);
    expect(body.notes?.reconciler).toMatchObject({ intervalSeconds: INTERVAL, lastError: null, late: false, degraded: null });
    expect(body.degraded).toBeUndefined();
    const metrics = await (await fetch(`${gitdex.url}/metrics`)).text();
    expect(metrics).toMatch(/^gitdex_reconciler_passes_total\{outcome="success"\} 1$/m);
    expect(metrics).toMatch(/^gitdex_reconciler_failing 0$/m);
    expect(metrics).toMatch(/^gitdex_reconciler_late 0$/m);
    expect((await status(gitdex)).join('\n')).toMatch(/^reconciler: ok, last pass \S+ \([\d.]+ s\), every 3600 s$/m);
  });

  it('says a failed pass on /readyz without turning unready, on /metrics and in gitdex status', async () => {
    // GitHub refuses gitdex's credentials: the list and the single read both fail.
    const gitdex = await start(await dataDirWithPublicRepository(), 'ghp_revokedToken000000000000000000');

    const { code, body } = await afterFirstPass(gitdex);

    expect(code).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.notes?.reconciler).toMatchObject({ lastSuccessAt: null, late: false });
    expect(String(body.notes?.reconciler?.lastError)).toMatch(/read.* failed, first .*: GitHub .*HTTP 401 Bad credentials/);
    expect(body.degraded).toEqual([expect.stringMatching(/^reconciler: the last reconciler pass failed at \S+: .*HTTP 401 Bad credentials/)]);
    const metrics = await (await fetch(`${gitdex.url}/metrics`)).text();
    expect(metrics).toMatch(/^gitdex_reconciler_passes_total\{outcome="failure"\} 1$/m);
    expect(metrics).toMatch(/^gitdex_reconciler_failing 1$/m);
    expect(metrics).toMatch(/^gitdex_reconciler_last_failure_timestamp_seconds \d+(\.\d+)?$/m);
    expect((await status(gitdex)).join('\n')).toMatch(/^reconciler: FAILED: the last reconciler pass failed at \S+: .*HTTP 401 Bad credentials/m);
    // Nothing was written from a failed read: the repository stays as it was indexed.
    expect(await gitdex.adapters.index.getRepository(id)).toMatchObject({ private: false });
  });
});
