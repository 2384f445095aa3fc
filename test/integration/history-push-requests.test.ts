// A push of several commits records each commit's files from one GraphQL query (the versions at
// the paths compare listed), equal to git's own account of each commit and to GitHub's commit
// endpoint, and costs at most one GitHub request more than the same push without history. A
// commit that changed a file and changed it back inside the push is read from the commit
// endpoint, and that request is counted. One stand-in, two SQLite indexes (history on and off).
import type { PushEvent } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import type { CommitFile, SourceRepository } from '@gitdex/ports';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createRepo, fixtureGit, makeTempRoot, removeTempRoot, renamePath } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

const TOKEN = 'push-requests-token';
const lines = (tag: string, n = 30) => Array.from({ length: n }, (_, i) => `${tag} line ${i}\n`).join('');

/** git's account of a commit against its first parent: `diff-tree -M --raw --numstat`, as CommitFile records. */
async function gitFiles(dir: string, sha: string): Promise<CommitFile[]> {
  const fields = (await fixtureGit(dir, ['diff-tree', '-r', '-z', '-M', '--no-commit-id', '--no-abbrev', '--raw', '--numstat', `${sha}^`, sha])).toString('utf8').split('\0');
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
    file.additions = Number(added);
    file.deletions = Number(deleted);
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
  const expectRecordsEqualToGit = async (shas: string[]): Promise<void> => {
    const stored = await history.getCommits(repositoryId, shas);
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
    await expectRecordsEqualToGit(await pushedShas(base, head));
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
    await expectRecordsEqualToGit(await pushedShas(base, head));
  });
});
