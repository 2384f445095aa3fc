// Pull requests through the stand-in's webhooks, the webhook's normalization and the indexer on
// SQLite, with an injected clock: a PR head is readable and searchable at refs/pull/N/head like
// git at that commit, synchronize moves it, closed keeps it for the retention and then drops it,
// the reconciler heals a missed delivery, and a private repository's PRs stay invisible. The
// pull request's history is its commits on its base branch's: compare, blame and list_commits on
// pull/1 equal git at refs/pull/1/head, and the history goes with the ref.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BlameOutput, CompareOutput, GitdexEvent, ListCommitsOutput, ReadFileOutput, SearchCodeOutput } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { DEFAULT_INDEX_REF_OPTIONS, handleEvent, reconcile, RefSelection, type HandleEventDeps } from '@gitdex/indexer';
import { callTool, resolveDeps } from '@gitdex/reader';
import { SqliteHistory, SqliteIndexStore } from '@gitdex/sqlite';
import { normalizeDelivery } from '@gitdex/webhook';
import { commitFiles, createBranch, createRepo, fixtureGit, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { startWebhookReceiver, type WebhookReceiver } from '../github-standin/webhook-receiver';
import { gitHead } from '../support/git-truth';

const SECRET = 'pull-secret';
const TOKEN = 'ghp_pulltoken';
const PR1 = 'refs/pull/1/head';

describe('pull requests indexed as refs/pull/N/head', () => {
  let root: string;
  let dir: string;
  let standIn: GitHubStandIn;
  let receiver: WebhookReceiver;
  let index: SqliteIndexStore;
  let history: SqliteHistory;
  let deps: HandleEventDeps;
  let repositoryId: number;
  let clock = Date.parse('2026-06-01T12:00:00.000Z');
  // Injected into the indexer: only the retention test moves it.

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-pulls-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i += 1) files[`src/module-${i}.ts`] = `export const value${i} = ${i};\n// shared marker\n`;
    dir = (await createRepo(root, 'acme', 'app', files)).dir;
    await createBranch(dir, 'feature');
    await fixtureGit(dir, ['checkout', '-q', 'feature']);
    await commitFiles(
      dir,
      { 'src/module-1.ts': 'export const value1 = 100; // shared marker changed\n', 'src/added.ts': 'export const added = true; // shared marker\n', 'src/module-2.ts': null },
      'feature work',
    );
    await fixtureGit(dir, ['checkout', '-q', 'main']);
    receiver = await startWebhookReceiver(SECRET);
    standIn = await createGitHubStandIn({ root, webhookUrl: receiver.url, secret: SECRET, token: TOKEN, rateLimit: { limit: 1_000_000 } });
    repositoryId = await standIn.repoId('acme', 'app');
    index = new SqliteIndexStore({ file: join(root, 'index.sqlite') });
    await index.ensureReady();
    history = new SqliteHistory({ file: join(root, 'history.sqlite') });
    deps = {
      index,
      history: { store: history, options: { depth: 500, maxBlobBytes: 1 << 20, concurrency: 4 } },
      source: new GitHubSource({ baseUrl: standIn.url, token: TOKEN }),
      options: DEFAULT_INDEX_REF_OPTIONS,
      now: () => new Date(clock),
      refs: new RefSelection(['default']),
      pulls: { indexed: 'open', closedRetentionSeconds: 3600 },
    };
    await handleEvent(deps, { kind: 'backfill', eventId: 'b-1', reason: 'cli', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
  });

  afterAll(async () => {
    await index?.close();
    await standIn?.close();
    await receiver?.close();
    if (root) await removeTempRoot(root);
  });

  const admin = async (path: string, body: unknown = {}): Promise<Record<string, unknown>> => {
    const response = await fetch(`${standIn.url}/_admin/repos/acme/app/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  /** The last pull_request delivery as the webhook service turns it into an event. */
  const delivered = (): GitdexEvent => {
    const last = receiver.last('pull_request')!;
    const normalized = normalizeDelivery({ event: last.event, deliveryId: last.deliveryId, payload: last.body, receivedAt: new Date(clock).toISOString() });
    if (normalized.outcome !== 'events') throw new Error(`not admitted: ${JSON.stringify(normalized)}`);
    return normalized.events[0]!;
  };
  const reader = () => resolveDeps({ index, history });
  const tool = async <T>(name: 'compare' | 'blame' | 'list_commits', args: Record<string, unknown>): Promise<T> =>
    (await callTool(reader(), name, { repository: 'acme/app', ...args }, null, { transport: 'memory' })).structured as T;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir }).toString();
  /** compare main...pull/1 against `git diff --name-status main...refs/pull/1/head`, and the merge base. */
  const expectCompareEqualsGit = async () => {
    const out = await tool<CompareOutput>('compare', { base: 'main', head: 'pull/1' });
    const names: Record<string, string> = { A: 'added', D: 'removed', M: 'modified' };
    const expected = git('diff', '--no-renames', '--name-status', 'main...refs/pull/1/head')
      .trim()
      .split('\n')
      .map((line) => [line.slice(2), names[line[0]!]]);
    expect(out.files.map((f) => [f.path, f.status])).toEqual(expected);
    expect(out.merge_base).toBe(git('merge-base', 'main', 'refs/pull/1/head').trim());
    for (const file of out.files.filter((f) => f.status === 'modified')) {
      expect(file.patch).toBe(git('diff', '--no-renames', 'main...refs/pull/1/head', '--', file.path).slice(git('diff', '--no-renames', 'main...refs/pull/1/head', '--', file.path).indexOf('@@')));
    }
  };
  /** blame of a file on pull/1, a commit per line, against git blame at refs/pull/1/head. */
  const expectBlameEqualsGit = async (path: string) => {
    const out = await tool<BlameOutput>('blame', { path, ref: 'pull/1' });
    const perLine = out.ranges.flatMap((r) => Array.from({ length: r.end_line - r.start_line + 1 }, () => r.commit.sha));
    const expected = git('blame', '--line-porcelain', 'refs/pull/1/head', '--', path)
      .split('\n')
      .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
      .map((l) => l.slice(0, 40));
    expect(perLine).toEqual(expected);
  };
  /** The message a failed read answers (tool errors are thrown in process). */
  const failure = (call: Promise<unknown>): Promise<string | null> =>
    call.then(
      () => null,
      (error: Error) => error.message,
    );
  const read = async (path: string, ref = PR1) => callTool(reader(), 'read_file', { repository: 'acme/app', path, ref }, null, { transport: 'memory' });
  const grep = (pattern: string, ref: string) =>
    execFileSync('git', ['grep', '-c', '-F', pattern, ref], { cwd: dir })
      .toString()
      .trim()
      .split('\n')
      .map((line) => line.slice(ref.length + 1))
      .map((line) => [line.slice(0, line.lastIndexOf(':')), Number(line.slice(line.lastIndexOf(':') + 1))] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1));
  const search = async (query: string, ref: string) => {
    const answer = await callTool(reader(), 'search_code', { repository: 'acme/app', query, ref, include_generated: true, limit: 100, context_lines: 0 }, null, { transport: 'memory' });
    const out = answer.structured as SearchCodeOutput;
    return out.files.map((f) => [f.path, f.match_count] as const).sort(([a], [b]) => (a < b ? -1 : 1));
  };

  it('opened: the head is readable and searchable like git at refs/pull/1/head, with the pull request stored', async () => {
    expect(await admin('pulls', { head: 'feature', base: 'main', title: 'Feature work' })).toMatchObject({ number: 1, status: 202 });
    const outcome = await handleEvent(deps, delivered());
    expect(outcome).toMatchObject({ action: 'synced', refs: [{ ref: PR1, outcome: { status: 'indexed' } }] });
    const state = await index.getRefState(repositoryId, PR1);
    expect(state).toMatchObject({ commitSha: gitHead(dir, 'feature'), status: 'ready', pull: { number: 1, title: 'Feature work', state: 'open', baseRef: 'main', headSha: gitHead(dir, 'feature') } });
    expect(((await read('src/module-1.ts')).structured as ReadFileOutput).content).toContain('value1 = 100');
    expect(((await read('src/module-1.ts', 'refs/heads/main')).structured as ReadFileOutput).content).toContain('value1 = 1;');
    expect(await failure(read('src/module-2.ts'))).toMatch(/^No file src\/module-2.ts in acme\/app at pull\/1 /);
    expect(await search('shared marker', PR1)).toEqual(grep('shared marker', 'refs/pull/1/head'));
    expect(await search('shared marker', 'refs/heads/main')).toEqual(grep('shared marker', 'main'));
    await expectCompareEqualsGit();
    await expectBlameEqualsGit('src/module-1.ts');
    const listed = await tool<ListCommitsOutput>('list_commits', { ref: 'pull/1' });
    expect(listed.commits.map((c) => c.sha)).toEqual(git('rev-list', 'refs/pull/1/head').trim().split('\n'));
  });

  it('synchronize moves the ref to the head branch commit', async () => {
    await fixtureGit(dir, ['checkout', '-q', 'feature']);
    await commitFiles(dir, { 'src/added.ts': 'export const added = 2; // shared marker twice shared marker\n' }, 'more work');
    await fixtureGit(dir, ['checkout', '-q', 'main']);
    await admin('pulls/1/synchronize');
    const event = delivered();
    expect(event).toMatchObject({ kind: 'pull_request', action: 'synchronize' });
    await handleEvent(deps, event);
    expect((await index.getRefState(repositoryId, PR1))?.commitSha).toBe(gitHead(dir, 'feature'));
    expect(((await read('src/added.ts')).structured as ReadFileOutput).content).toContain('added = 2');
    expect(await search('shared marker', PR1)).toEqual(grep('shared marker', 'refs/pull/1/head'));
    await expectCompareEqualsGit();
    await expectBlameEqualsGit('src/added.ts');
  });

  it('a base that moved on since the branch was cut: the head still equals git, found by two compares instead of tree reads', async () => {
    // main changes module-5 and makes the same change to added.ts the pull request made; the head gains late.ts.
    const same = (await fixtureGit(dir, ['show', 'feature:src/added.ts'])).toString();
    await commitFiles(dir, { 'src/module-5.ts': 'export const value5 = 500; // shared marker on main\n', 'src/added.ts': same }, 'main moves on');
    await handleEvent(deps, { kind: 'backfill', eventId: 'b-main', reason: 'cli', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
    await fixtureGit(dir, ['checkout', '-q', 'feature']);
    await commitFiles(dir, { 'src/late.ts': 'export const late = 1; // shared marker\n' }, 'late work');
    await fixtureGit(dir, ['checkout', '-q', 'main']);
    await admin('pulls/1/synchronize');
    standIn.requests.reset();
    const outcome = await handleEvent(deps, delivered());
    expect(outcome).toMatchObject({ refs: [{ ref: PR1, outcome: { status: 'indexed', strategy: 'layered', treesFetched: 0 } }] });
    expect(standIn.requests.counts()).toEqual({
      'GET /repos/:owner/:repo': 1,
      'GET /repos/:owner/:repo/pulls/:number': 1,
      'GET /repos/:owner/:repo/compare/*basehead': 2,
      'POST /graphql': 1,
      // History: compare listed the new commit, whose own files are one request.
      'GET /repos/:owner/:repo/commits/*ref': 1,
    });
    const state = await index.getRefState(repositoryId, PR1);
    expect(state?.underlay?.shadowed).toEqual(['src/late.ts', 'src/module-1.ts', 'src/module-2.ts', 'src/module-5.ts']);
    expect(((await read('src/module-5.ts')).structured as ReadFileOutput).content).toContain('value5 = 5;');
    expect(await search('shared marker', PR1)).toEqual(grep('shared marker', 'refs/pull/1/head'));
    expect(await search('shared marker', 'refs/heads/main')).toEqual(grep('shared marker', 'main'));
    // Diverged: the merge base is behind main's head, and compare starts there as git does.
    await expectCompareEqualsGit();
    await expectBlameEqualsGit('src/late.ts');
  });

  it('a private repository hides its pull requests from callers who may not read it, like the repository', async () => {
    await fetch(`${standIn.url}/_admin/repos/acme/app/visibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ private: true, deliver: false }) });
    await handleEvent(deps, { kind: 'repository_changed', eventId: 'v-1', action: 'privatized', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
    const hidden = await failure(read('src/added.ts'));
    const missing = await failure(callTool(reader(), 'read_file', { repository: 'acme/nothing-here', path: 'src/added.ts', ref: PR1 }, null, { transport: 'memory' }));
    expect(hidden).not.toBeNull();
    expect(hidden?.replace(/acme\/app/g, 'X')).toBe(missing?.replace(/acme\/nothing-here/g, 'X'));
    await fetch(`${standIn.url}/_admin/repos/acme/app/visibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ private: false, deliver: false }) });
    await handleEvent(deps, { kind: 'repository_changed', eventId: 'v-2', action: 'publicized', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
    expect(await failure(read('src/added.ts'))).toBeNull();
  });

  it('the reconciler heals a missed opened delivery from GitHub open list', async () => {
    await admin('pulls', { head: 'feature', base: 'main', title: 'Second look' }); // its delivery is "lost"
    const queued: GitdexEvent[] = [];
    const report = await reconcile({
      index,
      source: deps.source,
      publisher: { publish: async (items) => void queued.push(...items.map((i) => i.event)), ping: async () => true, close: async () => undefined },
      now: () => new Date(clock),
      pulls: deps.pulls!,
    });
    expect(report.pulls).toMatchObject({ queued: 1, lists: 1 });
    expect(queued).toMatchObject([{ kind: 'pull_request', action: 'opened', pull: { number: 2 } }]);
    await handleEvent(deps, queued[0]!);
    expect((await index.getRefState(repositoryId, 'refs/pull/2/head'))?.commitSha).toBe(gitHead(dir, 'feature'));
  });

  it('closed: readable for the retention, then dropped on the next event of the repository', async () => {
    expect(await admin('pulls/1/close', { merged: true })).toMatchObject({ state: 'closed', merged: true });
    await handleEvent(deps, delivered());
    const closed = (await index.getRefState(repositoryId, PR1))?.pull;
    expect(closed).toMatchObject({ state: 'closed', merged: true });
    expect(await failure(read('src/added.ts'))).toBeNull();
    // The retention (an hour here) counts from GitHub's closing time.
    clock = Date.parse(closed!.closedAt!) + 3600_000 - 1_000;
    await handleEvent(deps, { kind: 'backfill', eventId: 'b-2', reason: 'cli', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
    expect(await index.getRefState(repositoryId, PR1)).not.toBeNull();
    clock += 1_000;
    await handleEvent(deps, { kind: 'backfill', eventId: 'b-3', reason: 'cli', repository: { id: repositoryId, fullName: 'acme/app' }, receivedAt: new Date(clock).toISOString() });
    expect(await index.getRefState(repositoryId, PR1)).toBeNull();
    expect(await history.getRefHistory(repositoryId, PR1)).toBeNull();
    expect(await failure(read('src/added.ts'))).toMatch(/not indexed/);
    // The other pull request is untouched by a backfill of the branches.
    expect(await index.getRefState(repositoryId, 'refs/pull/2/head')).not.toBeNull();
  });

  it('GITDEX_INDEXED_PULLS=off drops pull request refs on the next event and indexes none', async () => {
    const off: HandleEventDeps = { ...deps, pulls: { indexed: 'off', closedRetentionSeconds: 3600 } };
    await admin('pulls/2/synchronize');
    expect(await handleEvent(off, delivered())).toMatchObject({ action: 'skipped', reason: expect.stringContaining('GITDEX_INDEXED_PULLS=off') });
    expect((await index.listRefStates(repositoryId)).map((s) => s.ref)).toEqual(['refs/heads/main']);
  });
});
