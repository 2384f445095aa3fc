// The reconciler over hundreds of repositories against the GitHub stand-in (real git repositories,
// GitHub's list endpoints with Link-header pages, a rate limit it enforces) and the embedded
// SQLite index: visibility comes from repository lists, a few requests for all of them, before
// the per-ref checks that spend one request each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitHubSource } from '@gitdex/github';
import { emptyRefState, reconcile } from '@gitdex/indexer';
import { SqliteEventLog, SqliteIndexStore } from '@gitdex/sqlite';
import { createLogger } from '@gitdex/observability';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { makeRepository } from '../conformance/index-store.fixtures';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { ROUTES } from '../github-standin/route-patterns';

const TOKEN = 'ghp_reconcileStandInToken0123456789';
const MAIN = 'refs/heads/main';
/** More than two pages of 100, as an organisation's few hundred repositories are. */
const REPOSITORIES = 260;
/** Indexed refs are checked one request each after the lists; a few of them show the order. */
const WITH_REFS = 10;

interface World {
  root: string;
  dataDir: string;
  standIn: GitHubStandIn;
  index: SqliteIndexStore;
  events: SqliteEventLog;
  ids: Map<string, number>;
}

/**
 * REPOSITORIES copies of one real repository under two owners, every one indexed (public) with
 * `installationId`, the first WITH_REFS with main ready at its head; the stand-in's request
 * counters start at zero.
 */
async function world(installationId: number | null): Promise<World> {
  const root = await makeTempRoot('gitdex-reconcile-');
  const dataDir = mkdtempSync(join(tmpdir(), 'gitdex-reconcile-index-'));
  const seed = await createRepo(root, 'acme', 'repo-000', { 'README.md': '# seed\n' });
  const names = ['acme/repo-000'];
  for (let i = 1; i < REPOSITORIES; i += 1) {
    const owner = i % 3 === 0 ? 'octo' : 'acme';
    const name = `repo-${String(i).padStart(3, '0')}`;
    bareCopy(join(seed.dir, '.git'), join(root, owner, name), seed.sha!);
    names.push(`${owner}/${name}`);
  }
  const standIn = await createGitHubStandIn({ root, token: TOKEN, organizations: ['acme'], rateLimit: { limit: 1_000_000 } });
  const index = new SqliteIndexStore({ file: join(dataDir, 'index.sqlite') });
  await index.ensureReady();
  const ids = new Map<string, number>();
  for (const fullName of names) {
    const [owner, name] = fullName.split('/') as [string, string];
    const id = await standIn.repoId(owner, name);
    ids.set(fullName, id);
    const document = makeRepository(id, fullName, { installationId, updatedAt: new Date().toISOString() });
    await index.putRepository(document);
    if (ids.size <= WITH_REFS) await index.putRefState({ ...emptyRefState(id, MAIN), commitSha: seed.sha, status: 'ready', indexedAt: new Date().toISOString() });
  }
  // The stand-in's first answer about a repository runs git for its facts (kept afterwards):
  // paid here, so the tests' time is the reconciler's requests.
  for (let page = 1; page <= 3; page += 1) await fetch(`${standIn.url}/user/repos?per_page=100&page=${page}`, { headers: { authorization: `token ${TOKEN}` } }).then((r) => r.arrayBuffer());
  const events = new SqliteEventLog({ file: join(dataDir, 'events.sqlite'), log: createLogger({ level: 'silent' }) });
  standIn.requests.reset();
  return { root, dataDir, standIn, index, events, ids };
}

/** A bare repository borrowing the seed's objects (git alternates): a few small files, no copy. */
function bareCopy(seedGitDir: string, dir: string, sha: string): void {
  mkdirSync(join(dir, 'objects', 'info'), { recursive: true });
  mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
  mkdirSync(join(dir, 'refs', 'tags'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
  writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${join(seedGitDir, 'objects')}\n`);
  writeFileSync(join(dir, 'refs', 'heads', 'main'), `${sha}\n`);
}

async function close(w: World): Promise<void> {
  await w.events.close();
  await w.index.close();
  await w.standIn.close();
  await removeTempRoot(w.root);
  rmSync(w.dataDir, { recursive: true, force: true });
}

const deps = (w: World, source: GitHubSource) => ({ index: w.index, source, publisher: w.events, now: () => new Date() });

describe('reconciler: visibility from repository lists', () => {
  let w: World;
  beforeAll(async () => {
    w = await world(null);
  }, 180_000);
  afterAll(() => close(w));

  it(`refreshes ${REPOSITORIES} repositories with 3 list requests, and applies a flip in that pass`, async () => {
    await w.standIn.setVisibility('acme', 'repo-007', true, { deliver: false });
    await w.standIn.setVisibility('octo', 'repo-201', true, { deliver: false });
    const source = new GitHubSource({ baseUrl: w.standIn.url, token: TOKEN, maxInlineWaitSeconds: 1 });

    const report = await reconcile(deps(w, source));

    expect(w.standIn.requests.count(ROUTES.authenticatedUserRepos)).toBe(3);
    // Not one GET /repositories/{id} (the stand-in logs it under the /repos pattern): every repository was in a list.
    expect(w.standIn.requests.count(ROUTES.repo)).toBe(0);
    expect(report.metadata).toEqual(
      expect.arrayContaining([
        { repository: 'acme/repo-007', changed: ['private'] },
        { repository: 'octo/repo-201', changed: ['private'] },
      ]),
    );
    expect(report.metadata).toHaveLength(2);
    expect(await w.index.getRepository(w.ids.get('acme/repo-007')!)).toMatchObject({ private: true });
    expect(await w.index.getRepository(w.ids.get('octo/repo-201')!)).toMatchObject({ private: true });
    // Then the per-ref checks: one branch head each, nothing drifted.
    expect(w.standIn.requests.count(ROUTES.branch)).toBe(WITH_REFS);
    expect(report).toMatchObject({ checked: WITH_REFS, drifted: [], failed: [], requests: { lists: 1, repositories: 0, heads: WITH_REFS } });
    expect(report.rateLimited).toBeUndefined();
  });

  it('reads on its own only a repository no list shows, and hides it when GitHub says it is gone', async () => {
    await w.standIn.remove('acme', 'repo-100', { deliver: false });
    w.standIn.requests.reset();
    const source = new GitHubSource({ baseUrl: w.standIn.url, token: TOKEN, maxInlineWaitSeconds: 1 });

    const report = await reconcile(deps(w, source));

    expect(w.standIn.requests.count(ROUTES.authenticatedUserRepos)).toBe(3);
    // GET /repositories/{id} of a deleted repository matches no route at the stand-in: counted by path.
    expect(w.standIn.requests.list().filter((r) => r.path.startsWith('/repositories/')).length).toBe(1);
    expect(report.metadata).toEqual([{ repository: 'acme/repo-100', changed: ['private'] }]);
    expect(await w.index.getRepository(w.ids.get('acme/repo-100')!)).toMatchObject({ private: true });
  });

  it("applies every visibility change even when GitHub's rate limit stops the per-ref checks, and says so", async () => {
    await w.standIn.setVisibility('acme', 'repo-007', false, { deliver: false });
    await w.standIn.setVisibility('octo', 'repo-252', true, { deliver: false });
    w.standIn.requests.reset();
    // 7 requests left in the window: 3 pages of the list, the one repository no list shows
    // (deleted above), then 3 heads. The old order (one request per repository first) would
    // have refreshed 7 repositories' visibility.
    w.standIn.rateLimit.limit = 7;
    w.standIn.rateLimit.reset();
    const source = new GitHubSource({ baseUrl: w.standIn.url, token: TOKEN, maxInlineWaitSeconds: 1 });

    const report = await reconcile(deps(w, source));

    expect(report.metadata).toEqual(
      expect.arrayContaining([
        { repository: 'acme/repo-007', changed: ['private'] },
        { repository: 'octo/repo-252', changed: ['private'] },
      ]),
    );
    expect(await w.index.getRepository(w.ids.get('acme/repo-007')!)).toMatchObject({ private: false });
    expect(await w.index.getRepository(w.ids.get('octo/repo-252')!)).toMatchObject({ private: true });
    expect(report.rateLimited).toMatch(/rate limit/i);
    expect(w.standIn.requests.count(ROUTES.authenticatedUserRepos)).toBe(3);
    expect(report.requests.heads).toBe(4); // three answered, the fourth refused with 403
    expect(report.checked).toBe(4);
    w.standIn.rateLimit.limit = 1_000_000;
    w.standIn.rateLimit.reset();
  });
});

describe('reconciler: visibility from an App installation', () => {
  let w: World;
  beforeAll(async () => {
    w = await world(42);
  }, 180_000);
  afterAll(() => close(w));

  it('lists the installation’s repositories with its token: 3 requests for all of them', async () => {
    await w.standIn.setVisibility('octo', 'repo-003', true, { deliver: false });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const source = new GitHubSource({ baseUrl: w.standIn.url, app: { appId: 1, privateKey }, maxInlineWaitSeconds: 1 });

    const report = await reconcile(deps(w, source));

    expect(w.standIn.requests.count(ROUTES.installationRepos)).toBe(3);
    expect(w.standIn.requests.count(ROUTES.repo)).toBe(0);
    expect(report.metadata).toEqual([{ repository: 'octo/repo-003', changed: ['private'] }]);
    expect(await w.index.getRepository(w.ids.get('octo/repo-003')!)).toMatchObject({ private: true });
  });
});
