// Issue 47, item 2: with only a GitHub App configured (no personal token), gitdex reads an
// installation's private repositories, backfills a whole installation from the CLI, reports
// it per installation, and its reconciler finds repositories added to or removed from the
// installation whose webhook was lost. The stand-in answers only the App's JWT and the
// installation tokens it minted.
import { generateKeyPairSync } from 'node:crypto';
import { GitHubSource } from '@gitdex/github';
import { reconcile } from '@gitdex/indexer';
import { createRepo, type FixtureRepo } from '../github-standin/fixture-repos';
import { ROUTES } from '../github-standin/route-patterns';
import { engineEndpoints } from '../harness/engines';
import { runCliProcess } from '../support/cli-process';
import { expectIndexEqualsGit } from '../support/index-truth';
import { startPipeline, type Pipeline } from '../support/pipeline';

const MAIN = 'refs/heads/main';
const INSTALLATION = 4711;
const REPOSITORIES = 50;

describe('GitHub App only: installation-wide backfill and status', () => {
  let p: Pipeline;
  let env: Record<string, string>;
  let app: { appId: number; privateKey: string };
  let secret: FixtureRepo;

  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    app = { appId: 99, privateKey };
    p = await startPipeline({ github: { app } });
    // A token gitdex is never given: every request must carry the App's JWT or a minted installation token.
    p.standIn.configure({ token: 'not-given-to-gitdex', installationId: INSTALLATION, organizations: ['fleet'] });
    secret = await createRepo(p.root, 'fleet', 'private-000', { 'src/secret.ts': 'export const key = "canary";\n', 'README.md': '# private\n' });
    await p.standIn.setVisibility('fleet', 'private-000', true, { deliver: false });
    for (let i = 1; i < REPOSITORIES; i += 1) await createRepo(p.root, 'fleet', `small-${String(i).padStart(3, '0')}`, { 'README.md': `# ${i}\n` });
    env = {
      KAFKA_BROKERS: engineEndpoints().kafkaBrokers,
      ELASTICSEARCH_URL: engineEndpoints().elasticsearchUrl,
      ELASTICSEARCH_INDEX_PREFIX: p.indexPrefix,
      KAFKA_TOPIC: p.topic,
      GITHUB_API_URL: p.standIn.url,
      GITHUB_APP_ID: String(app.appId),
      GITHUB_APP_PRIVATE_KEY: privateKey,
    };
  }, 120_000);
  afterAll(() => p.close());

  it(`backfills every one of ${REPOSITORIES} repositories of an installation, status says ${REPOSITORIES} of ${REPOSITORIES}, and a private one reads back equal to git`, async () => {
    const result = await runCliProcess(['backfill', '--installation', String(INSTALLATION), '--timeout', '240'], env, 270_000);
    expect(result.stderr).not.toMatch(/gitdex:/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`installation ${INSTALLATION} \\(fleet\\): queued ${REPOSITORIES} repositories`));
    expect(result.stdout).toMatch(new RegExp(`installation ${INSTALLATION} \\(fleet\\): ${REPOSITORIES} of ${REPOSITORIES} indexed, 0 queued, 0 failed`));
    // Tokens came from the App: the stand-in minted installation tokens and listed the installation.
    expect(p.standIn.requests.count(ROUTES.accessTokens, 'POST')).toBeGreaterThan(0);

    const privateId = await p.standIn.repoId('fleet', 'private-000');
    await expectIndexEqualsGit(p.index, privateId, MAIN, secret.dir);
    expect(await p.index.getRepository(privateId)).toMatchObject({ private: true, installationId: INSTALLATION });

    const status = await runCliProcess(['status', '--json'], env);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout) as { summary: { installations: { installationId: number; expected: number; indexed: number; queued: number; failed: number }[] } };
    expect(parsed.summary.installations).toEqual([expect.objectContaining({ installationId: INSTALLATION, expected: REPOSITORIES, indexed: REPOSITORIES, queued: 0, failed: 0 })]);
    const table = await runCliProcess(['status'], env);
    expect(table.stdout).toContain(`installation ${INSTALLATION} (fleet): ${REPOSITORIES} of ${REPOSITORIES} indexed`);
  }, 300_000);

  it('indexes a private repository by name with the App alone, and one it cannot see does not exist', async () => {
    const result = await runCliProcess(['index', 'fleet/private-000'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/refs\/heads\/main: already indexed/);
    const missing = await runCliProcess(['index', 'fleet/no-such-repo'], env);
    expect(missing.code).toBe(3);
    const refused = await runCliProcess(['backfill', '--installation', '12345', '--no-wait'], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/no installation 12345/);
  });

  it('the reconciler queues repositories added to the installation and purges one removed from it, though no webhook came', async () => {
    const added = await createRepo(p.root, 'fleet', 'added-later', { 'a.txt': 'added\n' });
    await p.standIn.remove('fleet', 'small-001', { deliver: false });
    const removedId = (await p.index.listRepositories()).find((r) => r.fullName === 'fleet/small-001')!.repositoryId;
    const source = new GitHubSource({ baseUrl: p.standIn.url, app, maxInlineWaitSeconds: 2 });

    const report = await reconcile({ index: p.index, source, publisher: p.publisher, now: () => new Date() });

    expect(report.membership).toEqual({ added: ['fleet/added-later'], removed: ['fleet/small-001'] });
    const addedId = await p.standIn.repoId('fleet', 'added-later');
    await p.waitForCommit(addedId, MAIN, added.sha!);
    await p.waitFor(async () => (await p.index.getRepository(removedId)) === null, 'the removed repository to be purged');
  }, 120_000);
});
