// A push of several commits records each commit's files from one GraphQL query (the versions at
// the paths compare listed), equal to git's own account of each commit and to GitHub's commit
// endpoint, and costs at most one GitHub request more than the same push without history. A
// commit that changed a file and changed it back inside the push is read from the commit
// endpoint, and that request is counted. A first index takes its commits' files from trees
// diffed here, equal to git too. One stand-in, two SQLite indexes (history on and off).
import type { PushEvent } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import type { CommitFile, SourceRepository } from '@gitdex/ports';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createBranch, createRepo, fixtureGit, makeTempRoot, removeTempRoot, renamePath } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

const TOKEN = 'push-requests-token';
const lines = (tag: string, n = 30) => Array.from({ length: n }, (_, i) => `${tag} line ${i}\n`).join('');

/** git's account of a commit against its first parent: `diff-tree -M --raw --numstat`, as CommitFile records. */
async function gitFiles(dir: string, sha: string): Promise<CommitFile[]> {
  const parents = (await fixtureGit(dir, ['rev-parse', `${sha}^@`])).toString().trim();
  const range = parents === '' ? ['--root', sha] : [`${sha}^1`, sha];
  const fields = (await fixtureGit(dir, ['diff-tree', '-r', '-z', '-M', '--no-commit-id', '--no-abbrev', '--raw', '--numstat', ...range])).toString('utf8').split('\0');
  const files: CommitFile[] = [];
  let i = 0;
  while (i < fields.length && fields[i]!.startsWith(':')) {
    const [, , oldSha = '', newSha = '', letter = ''] = fields[i]!.slice(1).split(' ');
    const renamed = letter.startsWith('R');
    const status = renamed ? 'renamed' : letter === 'A' ? 'added' : letter === 'D' ? 'removed' : 'modified';
    const path = fields[i + (renamed ? 2 : 1)]!;
    const zero = /^0+$/;
    files.push({
      path,
      previousPath: renamed ? fields[i + 1]! : null,
      status,
      additions: 0,
      deletions: 0,
      blobBefore: zero.test(oldSha) ? null : oldSha,
      blobAfter: zero.test(newSha) ? null : newSha,
    });
    i += renamed ? 3 : 2;
  }
  for (const file of files) {
    const [added = '0', deleted = '0'] = fields[i]!.split('\t');
    // git prints '-' for a binary file; GitHub counts it as 0 and 0.
    file.additions = added === '-' ? 0 : Number(added);
    file.deletions = deleted === '-' ? 0 : Number(deleted);
    i += file.status === 'renamed' ? 3 : 1;
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

describe('a push of several commits: files from one query, at most one request more', () => {
  let root: string;
  let dir: string;
  let standIn: GitHubStandIn;
  let repositoryId: number;
  let repository: SourceRepository;
  let source: GitHubSource;
  const history = new SqliteHistory({ file: ':memory:' });
  const withHistory = new SqliteIndexStore({ file: ':memory:' });
  const without = new SqliteIndexStore({ file: ':memory:' });
  let on: HandleEventDeps;
  let off: HandleEventDeps;
  let served = '';

  /** The push given to both indexes; the requests each one made. */
  const push = async (after: string): Promise<{ on: number; off: number; routes: Record<string, number> }> => {
    const event: PushEvent = {
      kind: 'push',
      eventId: `push-${after}`,
      repository: { id: repositoryId, fullName: 'acme/pushes' },
      receivedAt: new Date().toISOString(),
      ref: 'refs/heads/main',
      before: served,
      after,
      created: false,
      deleted: false,
      forced: false,
    };
    standIn.requests.reset();
    await handleEvent(off, event);
    const offCount = standIn.requests.total;
    standIn.requests.reset();
    await handleEvent(on, event);
    const onCount = standIn.requests.total;
    const routes = standIn.requests.counts();
    served = after;
    return { on: onCount, off: offCount, routes };
  };

  const pushedShas = async (from: string, to: string) => (await fixtureGit(dir, ['rev-list', '--reverse', `${from}..${to}`])).toString().trim().split('\n');

  /** The stored records equal git's, and equal to what the commit endpoint gives (statuses, paths, counts, blobs). */
  const expectRecordsEqualToGit = async (shas: string[], dir: string, repositoryId: number, repository: SourceRepository, store = history): Promise<void> => {
    const stored = await store.getCommits(repositoryId, shas);
    expect(stored.map((c) => c.sha).sort()).toEqual([...shas].sort());
    for (const sha of shas) {
      const record = stored.find((c) => c.sha === sha)!;
      expect({ sha, files: record.files }).toEqual({ sha, files: await gitFiles(dir, sha) });
      expect(record.filesComplete).toBe(true);
      const rest = await source.history!.commitFiles(repository, sha);
      expect(
        record.files.map((f) => ({
          path: f.path,
          previousPath: f.previousPath,
          status: f.status,
          additions: f.additions,
          deletions: f.deletions,
          sha: f.status === 'removed' ? f.blobBefore : f.blobAfter,
        })),
      ).toEqual(rest.files.map((f) => ({ path: f.path, previousPath: f.previousPath, status: f.status, additions: f.additions, deletions: f.deletions, sha: f.sha })));
    }
  };

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-push-requests-');
    standIn = await createGitHubStandIn({ root, token: TOKEN, rateLimit: { limit: 1_000_000 } });
    await Promise.all([withHistory.ensureReady(), without.ensureReady(), history.ensureHistoryReady()]);
    const repo = await createRepo(root, 'acme', 'pushes', { 'a.txt': lines('a'), 'b.txt': lines('b'), 'c.txt': lines('c'), 'keep.txt': lines('keep', 5) });
    dir = repo.dir;
    repositoryId = await standIn.repoId('acme', 'pushes');
    source = new GitHubSource({ baseUrl: standIn.url, token: TOKEN });
    repository = (await source.repository(repositoryId))!;
    const common = { source, refs: new RefSelection(['default']), options: DEFAULT_INDEX_REF_OPTIONS, now: () => new Date() };
    on = { ...common, index: withHistory, history: { store: history, options: { depth: 500, maxBlobBytes: 1024 * 1024, concurrency: 4 } } };
    off = { ...common, index: without };
    const first = { kind: 'backfill' as const, eventId: 'first', repository: { id: repositoryId, fullName: 'acme/pushes' }, receivedAt: new Date().toISOString(), reason: 'cli' as const };
    await handleEvent(on, first);
    await handleEvent(off, first);
    served = (await fixtureGit(dir, ['rev-parse', 'main'])).toString().trim();
  });

  it('a first index records every commit from trees diffed here, equal to git and the commit endpoint, in a few requests', async () => {
    const other = (await createRepo(root, 'acme', 'backfill', { 'src/a/one.ts': lines('one'), 'src/a/two.ts': lines('two'), 'docs/guide.md': lines('guide'), 'run.sh': lines('run', 3) })).dir;
    await commitFiles(other, { 'src/a/one.ts': lines('one').replace('one line 4\n', 'one line four\n') }, 'Edit one');
    await renamePath(other, 'src/a/two.ts', 'lib/deep/two.ts', 'Move two to lib/deep');
    await commitFiles(other, { 'lib/deep/two.ts': lines('two').replace('two line 1\n', ''), 'docs/guide.md': null }, 'Edit two, drop the guide');
    await commitFiles(other, { 'run.sh': { content: lines('run', 3), executable: true } }, 'Make run.sh executable');
    await commitFiles(other, { 'img/logo.bin': Buffer.from([0, 1, 2, 3, 0, 255]) }, 'Add a binary');
    await createBranch(other, 'side');
    const side = await commitFiles(other, { 'src/b/three.ts': lines('three') }, 'Three', { branch: 'side' });
    for (let i = 0; i < 6; i += 1) await commitFiles(other, { [`src/a/n${i % 2}.ts`]: lines(`n${i}`) }, `Edit n${i % 2}`);
    const ours = (await fixtureGit(other, ['rev-parse', 'refs/heads/main'])).toString().trim();
    const tree = (await fixtureGit(other, ['merge-tree', '--write-tree', ours, side])).toString().split('\n')[0]!.trim();
    const who = { GIT_AUTHOR_NAME: 'Merger', GIT_AUTHOR_EMAIL: 'merger@example.com', GIT_COMMITTER_NAME: 'Merger', GIT_COMMITTER_EMAIL: 'merger@example.com' };
    const merged = (await fixtureGit(other, ['commit-tree', tree, '-p', ours, '-p', side, '-m', 'Merge side'], undefined, who)).toString().trim();
    await fixtureGit(other, ['update-ref', 'refs/heads/main', merged]);
    const otherId = await standIn.repoId('acme', 'backfill');
    const otherRepository = (await source.repository(otherId))!;
    const shas = (await fixtureGit(other, ['rev-list', 'main'])).toString().trim().split('\n');
    const first = { kind: 'backfill' as const, eventId: 'backfill-first', repository: { id: otherId, fullName: 'acme/backfill' }, receivedAt: new Date().toISOString(), reason: 'cli' as const };
    standIn.requests.reset();
    await handleEvent(off, first);
    const offCount = standIn.requests.total;
    standIn.requests.reset();
    await handleEvent(on, first);
    const routes = standIn.requests.counts();
    // Only the root commit and the merge are read from the commit endpoint; the other twelve come
    // from the log (1), a tree query a level down to lib/deep (3) and one blob batch: GraphQL
    // queries do not grow with the commits, as a request a commit did.
    expect(routes['GET /repos/:owner/:repo/commits/*ref']).toBe(2);
    expect(routes['POST /graphql']).toBeLessThanOrEqual(5);
    expect(standIn.requests.total - offCount).toBeLessThanOrEqual(7);
    await expectRecordsEqualToGit(shas, other, otherId, otherRepository);

    // A shallower history: the oldest commit held has its parent beyond it, whose tree is read by the commit's id.
    const shallowHistory = new SqliteHistory({ file: ':memory:' });
    const shallowIndex = new SqliteIndexStore({ file: ':memory:' });
    try {
      await Promise.all([shallowIndex.ensureReady(), shallowHistory.ensureHistoryReady()]);
      standIn.requests.reset();
      await handleEvent({ ...on, index: shallowIndex, history: { store: shallowHistory, options: { depth: 5, maxBlobBytes: 1024 * 1024, concurrency: 4 } } }, { ...first, eventId: 'shallow' });
      // Only the merge is read from the commit endpoint.
      expect(standIn.requests.count('/repos/:owner/:repo/commits/*ref')).toBe(1);
      const held = (await shallowHistory.getRefHistory(otherId, 'refs/heads/main'))?.commits ?? [];
      expect(held).toHaveLength(5);
      await expectRecordsEqualToGit(held, other, otherId, otherRepository, shallowHistory);
    } finally {
      shallowHistory.close();
      await shallowIndex.close();
    }
  });

  afterAll(async () => {
    await withHistory.close();
    await without.close();
    history.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
  });

  it('edit, rename with an edit, delete: equal to git and the commit endpoint, one request more', async () => {
    const base = served;
    await commitFiles(dir, { 'a.txt': lines('a').replace('a line 3\n', 'a line three\n') }, 'Edit a');
    await renamePath(dir, 'b.txt', 'lib/b.txt', 'Move b');
    await commitFiles(dir, { 'lib/b.txt': lines('b').replace('b line 7\n', 'b line seven\nand one more\n') }, 'Edit b');
    const head = await commitFiles(dir, { 'c.txt': null }, 'Delete c');
    const cost = await push(head);
    expect(cost.on - cost.off).toBeLessThanOrEqual(1);
    await expectRecordsEqualToGit(await pushedShas(base, head), dir, repositoryId, repository);
  });

  it('a file changed and changed back inside the push: that commit and its revert come from the commit endpoint, counted', async () => {
    const base = served;
    await commitFiles(dir, { 'keep.txt': lines('kept', 5), 'a.txt': lines('a').replace('a line 9\n', '') }, 'Change keep and a');
    await commitFiles(dir, { 'keep.txt': lines('keep', 5) }, 'Change keep back');
    const head = await commitFiles(dir, { 'new.txt': lines('new', 3), 'a.txt': null }, 'Add new, remove a');
    const cost = await push(head);
    // One query, then the two commits whose counts named a file compare does not list, and one
    // batch for the bytes of the version in between (in neither generation nor the query).
    expect(cost.on - cost.off).toBe(4);
    expect(cost.routes['GET /repos/:owner/:repo/commits/*ref']).toBe(2);
    await expectRecordsEqualToGit(await pushedShas(base, head), dir, repositoryId, repository);
  });
});
