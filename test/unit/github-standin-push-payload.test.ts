// The stand-in's push payloads must have GitHub's shape: typed as PushEvent (compile-time) and
// key-for-key like the real example payloads shipped in @octokit/webhooks-examples.
import definitions from '@octokit/webhooks-examples';
import type { PushEvent, RepositoryRenamedEvent } from '@octokit/webhooks-types';
import { commitFiles, createBranch, createRepo, forcePush, makeTempRoot, removeTempRoot, type FixtureRepo } from '../github-standin/fixture-repos';
import { ZERO_SHA } from '../github-standin/git';
import { buildPushPayload, type PushInput } from '../github-standin/push-payload';
import { userJson, type Urls } from '../github-standin/repo-json';
import { RepoStore } from '../github-standin/repo-store';

function examplesOf(name: 'push'): PushEvent[];
function examplesOf(name: string): unknown[] {
  const definition = definitions.find((d) => d.name === name);
  if (!definition) throw new Error(`no ${name} examples`);
  return definition.examples;
}

const pushExamples = examplesOf('push');
/** A branch push with commits to a user's repository (no organization), the closest match to ours. */
const branchExample = pushExamples.find((e) => e.ref.startsWith('refs/heads/') && e.commits.length > 0 && !e.organization);

const sortedKeys = (value: object): string[] => Object.keys(value).sort();
const urls: Urls = { apiUrl: 'http://127.0.0.1:1', htmlUrl: 'https://github.com' };

describe('push payload shape', () => {
  let root: string;
  let fixture: FixtureRepo;
  let store: RepoStore;

  beforeAll(async () => {
    root = await makeTempRoot();
    fixture = await createRepo(root, 'Codertocat', 'Hello-World', { 'README.md': '# Hello\n', 'src/a.ts': 'a\n' });
    store = new RepoStore(root);
  });
  afterAll(() => removeTempRoot(root));

  async function payloadFor(ref: string, before: string, after: string, installation = branchExample?.installation): Promise<PushEvent> {
    const repo = await store.find('Codertocat', 'Hello-World');
    if (!repo) throw new Error('fixture missing');
    const parties = { sender: userJson('Codertocat', 'User', urls), ...(installation ? { installation } : {}) };
    const input: PushInput = { repo, ref, before, after, urls, ownerType: 'User', parties };
    return buildPushPayload(input);
  }

  it('has a branch push example to compare with', () => {
    expect(branchExample).toBeDefined();
  });

  it('has the same top-level, repository, owner, commit, pusher and sender keys as GitHub', async () => {
    const second = await commitFiles(fixture.dir, { 'src/b.ts': 'b\n', 'src/a.ts': null, 'README.md': '# Hello again\n' }, 'Second commit');
    const payload = await payloadFor('refs/heads/main', fixture.sha ?? '', second);
    const example = branchExample as PushEvent;
    expect(sortedKeys(payload)).toEqual(sortedKeys(example));
    expect(sortedKeys(payload.repository)).toEqual(sortedKeys(example.repository));
    expect(sortedKeys(payload.repository.owner)).toEqual(sortedKeys(example.repository.owner));
    expect(sortedKeys(payload.pusher)).toEqual(sortedKeys(example.pusher));
    expect(sortedKeys(payload.sender)).toEqual(sortedKeys(example.sender));
    const exampleCommit = example.commits[0];
    expect(exampleCommit).toBeDefined();
    // GitHub adds `username` to author/committer only for users it recognises.
    const commitKeys = (c: PushEvent['commits'][number]): string[] => sortedKeys(c);
    expect(commitKeys(payload.commits[0] as PushEvent['commits'][number])).toEqual(commitKeys(exampleCommit as PushEvent['commits'][number]));
    expect(payload.head_commit && sortedKeys(payload.head_commit)).toEqual(example.head_commit && sortedKeys(example.head_commit));
  });

  it('uses the push flavour of the repository object (numeric dates, html url)', async () => {
    const payload = await payloadFor('refs/heads/main', ZERO_SHA, fixture.sha ?? '');
    expect(typeof payload.repository.created_at).toBe('number');
    expect(typeof payload.repository.pushed_at).toBe('number');
    expect(payload.repository.url).toBe('https://github.com/Codertocat/Hello-World');
    expect(payload.repository.master_branch).toBe('main');
    expect(payload.repository.full_name).toBe('Codertocat/Hello-World');
  });

  it('describes created, updated, forced and deleted refs', async () => {
    const dir = fixture.dir;
    const base = await commitFiles(dir, { 'c.txt': 'c\n' }, 'Third');
    const created = await payloadFor('refs/heads/main', ZERO_SHA, base);
    expect(created).toMatchObject({ created: true, deleted: false, forced: false, before: ZERO_SHA, after: base });
    expect(created.commits.length).toBe(3);

    const next = await commitFiles(dir, { 'c.txt': 'c2\n', 'd.txt': 'd\n' }, 'Fourth');
    const updated = await payloadFor('refs/heads/main', base, next);
    expect(updated).toMatchObject({ created: false, deleted: false, forced: false, compare: `https://github.com/Codertocat/Hello-World/compare/${base.slice(0, 12)}...${next.slice(0, 12)}` });
    expect(updated.commits.map((c) => [c.id, c.added, c.modified, c.removed])).toEqual([[next, ['d.txt'], ['c.txt'], []]]);
    expect(updated.head_commit?.id).toBe(next);

    const rewritten = await forcePush(dir, 'main', { 'only.txt': 'x\n' });
    const forced = await payloadFor('refs/heads/main', next, rewritten);
    expect(forced).toMatchObject({ forced: true, created: false, deleted: false });
    expect(forced.commits.map((c) => c.id)).toEqual([rewritten]);

    await createBranch(dir, 'topic');
    const branchCreated = await payloadFor('refs/heads/topic', ZERO_SHA, rewritten);
    expect(branchCreated).toMatchObject({ created: true, base_ref: 'refs/heads/main', commits: [] });

    const deleted = await payloadFor('refs/heads/topic', rewritten, ZERO_SHA);
    expect(deleted).toMatchObject({ deleted: true, created: false, forced: false, head_commit: null, commits: [] });
  });

  it('caps the listed commits and keeps the most recent ones', async () => {
    const repo = await createRepo(root, 'Codertocat', 'many', { 'f.txt': '0\n' });
    let head = repo.sha ?? '';
    for (let i = 1; i <= 24; i += 1) head = await commitFiles(repo.dir, { 'f.txt': `${i}\n` }, `Commit ${i}`);
    const handle = await store.find('Codertocat', 'many');
    if (!handle) throw new Error('fixture missing');
    const payload = await buildPushPayload({ repo: handle, ref: 'refs/heads/main', before: ZERO_SHA, after: head, urls, ownerType: 'User', parties: { sender: userJson('Codertocat', 'User', urls) } });
    expect(payload.commits).toHaveLength(20);
    expect(payload.commits[19]?.id).toBe(head);
    expect(payload.commits[0]?.message).toBe('Commit 5');
  });

  it('types repository events against the schema too', () => {
    // Compile-time check: the renamed example must be assignable to the schema type we build.
    const renamed = definitions.find((d) => d.name === 'repository')?.examples.find((e) => (e as { action?: string }).action === 'renamed') as RepositoryRenamedEvent | undefined;
    expect(renamed?.changes.repository.name.from).toBeDefined();
  });
});
