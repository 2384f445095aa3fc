// Issue 47 item 3 and issue 46 item 3: a reconciler pass over 120 repositories against the
// GitHub stand-in (real git repositories, its rate limit, ETags and 304s as GitHub answers
// them) and the embedded SQLite index stays within the budget it was given, and a repeated
// pass with nothing changed is 304s, which GitHub does not count.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitHubSource } from '@gitdex/github';
import { budgetedIntervalSeconds, countedRequests, emptyRefState, reconcile } from '@gitdex/indexer';
import { SqliteEventLog, SqliteIndexStore } from '@gitdex/sqlite';
import { createLogger } from '@gitdex/observability';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { makeRepository } from '../conformance/index-store.fixtures';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { ROUTES } from '../github-standin/route-patterns';

const TOKEN = 'ghp_budgetStandInToken0123456789';
const MAIN = 'refs/heads/main';
// Past one list page (100 a page), so the pass pages through the installation's list.
const REPOSITORIES = 120;
const LIST_PAGES = Math.ceil(REPOSITORIES / 100);
const BUDGET = { share: 0.1, limitPerHour: 5000, minimumSeconds: 300 };

describe('reconciler: a pass over many repositories within its budget', () => {
  let root: string;
  let dataDir: string;
  let standIn: GitHubStandIn;
  let index: SqliteIndexStore;
  let events: SqliteEventLog;
  let seedDir: string;

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-budget-');
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-budget-index-'));
    const seed = await createRepo(root, 'acme', 'repo-000', { 'README.md': '# seed\n' });
    seedDir = seed.dir;
    const names = ['repo-000'];
    for (let i = 1; i < REPOSITORIES; i += 1) {
      const name = `repo-${String(i).padStart(3, '0')}`;
      bareCopy(join(seed.dir, '.git'), join(root, 'acme', name), seed.sha!);
      names.push(name);
    }
    standIn = await createGitHubStandIn({ root, token: TOKEN, organizations: ['acme'] });
    index = new SqliteIndexStore({ file: join(dataDir, 'index.sqlite') });
    await index.ensureReady();
    for (const name of names) {
      const id = await standIn.repoId('acme', name);
      await index.putRepository(makeRepository(id, `acme/${name}`, { installationId: null, updatedAt: new Date().toISOString() }));
      await index.putRefState({ ...emptyRefState(id, MAIN), commitSha: seed.sha, status: 'ready', indexedAt: new Date().toISOString() });
    }
    // The stand-in's first answer about a repository runs git for its facts: paid here.
    for (let page = 1; page <= LIST_PAGES; page += 1) await fetch(`${standIn.url}/user/repos?per_page=100&page=${page}`, { headers: { authorization: `token ${TOKEN}` } }).then((r) => r.arrayBuffer());
    events = new SqliteEventLog({ file: join(dataDir, 'events.sqlite'), log: createLogger({ level: 'silent' }) });
  }, 180_000);
  afterAll(async () => {
    await events.close();
    await index.close();
    await standIn.close();
    await removeTempRoot(root);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('spends at most its share of the hourly limit, and a repeated pass is 304s that cost nothing', async () => {
    const source = new GitHubSource({ baseUrl: standIn.url, token: TOKEN, maxInlineWaitSeconds: 1 });
    const pass = async () => {
      standIn.requests.reset();
      standIn.rateLimit.reset();
      const report = await reconcile({ index, source, publisher: events, now: () => new Date() });
      const log = standIn.requests.list();
      return { report, requests: log.length, notModified: log.filter((r) => r.status === 304).length, counted: standIn.rateLimit.snapshot().used };
    };

    const first = await pass();
    expect(first.report).toMatchObject({ checked: REPOSITORIES, drifted: [], failed: [] });
    // The list pages and every head, each counted: the stand-in's rate limit agrees with the report.
    expect(first.requests).toBe(REPOSITORIES + LIST_PAGES);
    expect(first.counted).toBe(countedRequests(first.report));
    const firstWait = budgetedIntervalSeconds(first.report, BUDGET);
    // Passes like it, one every firstWait seconds, spend at most the budget: 0.1 of 5,000 an hour.
    expect((first.counted * 3600) / firstWait).toBeLessThanOrEqual(BUDGET.share * BUDGET.limitPerHour);

    const second = await pass();
    expect(second.requests).toBe(REPOSITORIES + LIST_PAGES);
    expect(standIn.requests.count(ROUTES.branch)).toBe(REPOSITORIES);
    expect(second.notModified).toBe(REPOSITORIES);
    expect(second.report.requests.notModified).toBe(REPOSITORIES);
    expect(second.counted).toBe(LIST_PAGES);
    expect(budgetedIntervalSeconds(second.report, BUDGET)).toBe(BUDGET.minimumSeconds);

    // A push whose webhook was lost changes that one answer: its ETag no longer matches, the drift is found.
    const pushed = await commitFiles(seedDir, { 'b.txt': 'b\n' }, 'pushed without a webhook');
    const third = await pass();
    expect(third.report.drifted).toEqual([{ repository: 'acme/repo-000', ref: MAIN, indexed: expect.any(String), head: pushed }]);
    expect(third.notModified).toBe(REPOSITORIES - 1);
  }, 120_000);
});

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
