// list_commits equals `git log REF [-- PATH]` on a repository built from real commits (edits, a
// rename, a deletion, a merge with a side branch, several commits in one push, a force push), on
// both backends, through the indexer's real path (handleEvent against the GitHub stand-in) and the
// tool as a caller runs it. One stand-in and one index per backend for the file.
import { Client } from '@elastic/elasticsearch';
import type { ListCommitsOutput, PushEvent } from '@gitdex/contracts';
import { ElasticsearchHistory, ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import type { HistoryStore, IndexStore } from '@gitdex/ports';
import { resolveDeps } from '@gitdex/reader';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { commitFiles, createBranch, createRepo, fixtureGit, forcePush, makeTempRoot, removeTempRoot, renamePath, resetBranch } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { engineEndpoints, uniqueName } from '../harness/engines';
import { toolRunner } from '../support/tool-backends';

const MAIN = 'refs/heads/main';
const TOKEN = 'history-token';

/** `git log` as the truth: sha, parents, author, author date and committer date (UTC), message. */
async function gitLog(
  dir: string,
  ref: string,
  path?: string,
): Promise<{ sha: string; parents: string[]; author: { name: string; email: string; date: string }; committed_at: string; message: string }[]> {
  const format = '%H%x1f%P%x1f%an%x1f%ae%x1f%at%x1f%ct%x1f%B%x1e';
  const out = (await fixtureGit(dir, ['log', `--format=${format}`, ref, '--', ...(path ? [path] : [])])).toString('utf8');
  const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [sha = '', parents = '', name = '', email = '', at = '', ct = '', message = ''] = record.split('\x1f');
      return { sha, parents: parents === '' ? [] : parents.split(' '), author: { name, email, date: iso(at) }, committed_at: iso(ct), message: message.replace(/\n$/, '') };
    });
}

/** A merge commit of `theirs` into the checked-out branch, with git's own merge of the trees. */
async function merge(dir: string, branch: string, theirs: string, message: string, epoch: number): Promise<string> {
  const ours = (await fixtureGit(dir, ['rev-parse', `refs/heads/${branch}`])).toString().trim();
  const tree = (await fixtureGit(dir, ['merge-tree', '--write-tree', ours, theirs])).toString().split('\n')[0]!.trim();
  const date = `${epoch} +0000`;
  const env = {
    GIT_AUTHOR_NAME: 'Merger',
    GIT_AUTHOR_EMAIL: 'merger@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'Merger',
    GIT_COMMITTER_EMAIL: 'merger@example.com',
    GIT_COMMITTER_DATE: date,
  };
  const sha = (await fixtureGit(dir, ['commit-tree', tree, '-p', ours, '-p', theirs, '-F', '-'], message, env)).toString().trim();
  await resetBranch(dir, branch, sha);
  return sha;
}

const backends: [string, (prefix: string) => { index: IndexStore; history: HistoryStore & { close(): unknown } }][] = [
  ['SQLite', () => ({ index: new SqliteIndexStore({ file: ':memory:' }), history: new SqliteHistory({ file: ':memory:' }) })],
  [
    'Elasticsearch',
    (prefix) => {
      const index = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });
      return { index, history: Object.assign(new ElasticsearchHistory(index.client, { indexPrefix: prefix }), { close: () => undefined }) };
    },
  ],
];

describe.each(backends)('list_commits equals git log (%s)', (name, make) => {
  let root: string;
  let dir: string;
  let standIn: GitHubStandIn;
  let index: IndexStore;
  let history: HistoryStore & { close(): unknown };
  let deps: HandleEventDeps;
  let repositoryId: number;
  const prefix = uniqueName(`hist${name.toLowerCase()}`).replace(/-/g, '');
  const run = toolRunner(() => resolveDeps({ index, history }));
  let served = '0'.repeat(40);
  let epoch = 1_800_000_000;
  const at = () => new Date((epoch += 60) * 1000);

  /** What a push webhook says; the indexer asks GitHub for the rest. */
  const pushed = async (after: string, forced = false): Promise<void> => {
    const event: PushEvent = {
      kind: 'push',
      eventId: `push-${after}`,
      repository: { id: repositoryId, fullName: 'acme/hist' },
      receivedAt: new Date().toISOString(),
      ref: MAIN,
      before: served,
      after,
      created: false,
      deleted: false,
      forced,
    };
    await handleEvent(deps, event);
    served = after;
  };

  const list = async (args: Record<string, unknown>): Promise<ListCommitsOutput> => {
    const answer = await run('list_commits', { repository: 'acme/hist', ...args });
    if (answer.isError) throw new Error(answer.text);
    return answer.structured as ListCommitsOutput;
  };

  /** Every page of list_commits, as the caller pages it. */
  const listAll = async (args: Record<string, unknown>): Promise<ListCommitsOutput['commits']> => {
    const all: ListCommitsOutput['commits'] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ ...args, limit: 4, ...(cursor ? { cursor } : {}) });
      all.push(...page.commits);
      cursor = page.next_cursor;
    } while (cursor);
    return all;
  };

  const expectEqualToGit = async (paths: (string | undefined)[]): Promise<void> => {
    for (const path of paths) {
      const truth = await gitLog(dir, 'main', path);
      const listed = await listAll(path ? { path } : {});
      expect({ path, commits: listed.map(({ url: _url, files_changed: _files, ...rest }) => rest) }).toEqual({ path, commits: truth });
    }
  };

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-history-');
    standIn = await createGitHubStandIn({ root, token: TOKEN, rateLimit: { limit: 1_000_000 } });
    ({ index, history } = make(prefix));
    await index.ensureReady();
    await history.ensureHistoryReady();
    const repo = await createRepo(
      root,
      'acme',
      'hist',
      { 'README.md': '# hist\n', 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n', 'docs/guide.md': 'guide\n' },
      { date: at() },
    );
    dir = repo.dir;
    repositoryId = await standIn.repoId('acme', 'hist');
    deps = {
      index,
      source: new GitHubSource({ baseUrl: standIn.url, token: TOKEN }),
      refs: new RefSelection(['default']),
      options: DEFAULT_INDEX_REF_OPTIONS,
      history: { store: history, options: { depth: 500, maxBlobBytes: 1024 * 1024, concurrency: 4 } },
      now: () => new Date(),
    };
    // History before gitdex first sees the repository: edits, a rename, a deletion, a side branch merged.
    await commitFiles(dir, { 'src/a.ts': 'export const a = 2;\n' }, 'Edit a\n\nWith a body.', { date: at() });
    await renamePath(dir, 'src/b.ts', 'lib/b.ts', 'Move b to lib', { date: at() });
    const fork = await commitFiles(dir, { 'docs/guide.md': 'guide v2\n' }, 'Guide v2', { date: at() });
    await createBranch(dir, 'topic', fork);
    await commitFiles(dir, { 'src/topic.ts': 'export const t = 1;\n' }, 'Topic work', { branch: 'topic', date: at(), author: { name: 'Tess Topic', email: 'tess@example.com' } });
    await commitFiles(dir, { 'src/a.ts': null }, 'Delete a', { date: at() });
    const topic = await commitFiles(dir, { 'docs/topic.md': 'topic docs\n' }, 'Topic docs', { branch: 'topic', date: at(), author: { name: 'Tess Topic', email: 'tess@example.com' } });
    await merge(dir, 'main', topic, 'Merge topic', (epoch += 60));
    // First index without history, as a deployment without GitHub credentials makes it.
    const { history: _kept, ...withoutHistory } = deps;
    await handleEvent(withoutHistory, { kind: 'backfill', eventId: 'first', repository: { id: repositoryId, fullName: 'acme/hist' }, receivedAt: new Date().toISOString(), reason: 'cli' });
    served = (await fixtureGit(dir, ['rev-parse', 'main'])).toString().trim();
  });

  afterAll(async () => {
    await index?.close();
    await history?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
    if (name === 'Elasticsearch') {
      const admin = new Client({ node: engineEndpoints().elasticsearchUrl });
      await admin.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all', ignore_unavailable: true, allow_no_indices: true });
      await admin.indices.deleteIndexTemplate({ name: `${prefix}-*` }).catch(() => undefined);
      await admin.close();
    }
  });

  it('a ref indexed without history says so and how it is mended, never "retry"; its next event backfills it from the log', async () => {
    for (const [tool, args] of [
      ['list_commits', {}],
      ['blame', { path: 'README.md' }],
      ['compare', { base: 'main~1', head: 'main' }],
    ] as const) {
      const answer = await run(tool, { repository: 'acme/hist', ...args });
      expect({ tool, isError: answer.isError }).toEqual({ tool, isError: true });
      if (tool !== 'compare') expect(answer.text).toMatch(/history of acme\/hist at main is not recorded\. .*token or a GitHub App.*GITDEX_HISTORY_DEPTH.*next push or backfill/);
      expect(answer.text).not.toMatch(/retry|try again/i);
    }
    await handleEvent(deps, { kind: 'backfill', eventId: 'again', repository: { id: repositoryId, fullName: 'acme/hist' }, receivedAt: new Date().toISOString(), reason: 'cli' });
  });

  it('after the backfill: every commit, in order, with and without a path (file, folder, renamed, deleted, merged-in)', async () => {
    await expectEqualToGit([undefined, 'src/a.ts', 'src', 'lib/b.ts', 'src/b.ts', 'docs', 'docs/topic.md', 'src/topic.ts', 'nowhere']);
    const first = await list({ limit: 1 });
    expect(first.commits[0]).toMatchObject({ message: 'Merge topic', files_changed: 2 });
    expect(first.history_held).toBe(8);
    expect(first.reached_oldest_held).toBe(false);
    expect((await list({ limit: 50 })).reached_oldest_held).toBe(false);
    expect((await list({ author: 'TESS' })).commits.map((c) => c.message)).toEqual(['Topic docs', 'Topic work']);
    // A commit older than those the index keeps readable, by sha prefix: git log from it.
    const older = (await fixtureGit(dir, ['rev-parse', 'main~3'])).toString().trim();
    expect((await listAll({ ref: older.slice(0, 9) })).map((c) => c.sha)).toEqual((await gitLog(dir, older)).map((c) => c.sha));
  });

  it('a push of several commits is listed exactly when its content is readable, then a force push rewrites it', async () => {
    await commitFiles(dir, { 'src/c.ts': 'export const c = 1;\n' }, 'Add c', { date: at() });
    await commitFiles(dir, { 'src/c.ts': 'export const c = 2;\n', 'docs/guide.md': 'guide v3\n' }, 'Edit c and guide', { date: at() });
    const head = await commitFiles(dir, { 'lib/b.ts': 'export const b = 3;\n' }, 'Edit b', { date: at() });
    await pushed(head);
    await expectEqualToGit([undefined, 'src', 'docs/guide.md', 'lib']);
    const read = await run('read_file', { repository: 'acme/hist', path: 'src/c.ts' });
    expect(read.text).toContain('c = 2');

    const rewritten = await forcePush(dir, 'main', { 'only.txt': 'rewritten\n' }, 'Rewrite history');
    await pushed(rewritten, true);
    await expectEqualToGit([undefined, 'src', 'only.txt']);
    const after = await list({});
    expect(after).toMatchObject({ history_held: 1, reached_oldest_held: false });
    // The old commits are gone from the store: no ref holds them.
    expect(await history.getCommits(repositoryId, [head])).toEqual([]);
  });
});
