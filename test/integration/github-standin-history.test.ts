// The stand-in's history routes in GitHub's shapes, computed from its git repository: the REST
// commit list (sha, path, Link pagination), a commit with its files (renames named, patches as git
// prints them), and GraphQL Commit.history and Commit's change counts, each equal to git.
import { execFileSync } from 'node:child_process';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot, renamePath } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { createTestOctokit, type StandInOctokitInstance } from '../github-standin/test-octokit';

const TOKEN = 'history-token';

describe('GitHub stand-in history', () => {
  let root: string;
  let dir: string;
  let standIn: GitHubStandIn;
  let octokit: StandInOctokitInstance;
  const log = (...args: string[]) =>
    execFileSync('git', ['-C', dir, 'log', '--format=%H', ...args], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);

  beforeAll(async () => {
    root = await makeTempRoot();
    dir = (await createRepo(root, 'acme', 'log', { 'a.txt': 'a\n', 'b.txt': 'b\n' })).dir;
    for (let i = 0; i < 4; i += 1) await commitFiles(dir, { 'a.txt': `a${i}\n` }, `Edit a ${i}\n\nbody ${i}`);
    await renamePath(dir, 'b.txt', 'docs/b.txt');
    standIn = await createGitHubStandIn({ root, token: TOKEN });
    octokit = createTestOctokit({ baseUrl: standIn.url, token: TOKEN }).octokit;
  });
  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  it('lists commits as git log does, by page with a Link header, and by path', async () => {
    const first = await octokit.request('GET /repos/{owner}/{repo}/commits', { owner: 'acme', repo: 'log', sha: 'main', per_page: 2 });
    expect(first.headers.link).toContain('rel="next"');
    const all = await octokit.paginate('GET /repos/{owner}/{repo}/commits', { owner: 'acme', repo: 'log', per_page: 2 });
    expect(all.map((c) => c.sha)).toEqual(log('main'));
    const byPath = await octokit.paginate('GET /repos/{owner}/{repo}/commits', { owner: 'acme', repo: 'log', path: 'a.txt', per_page: 100 });
    expect(byPath.map((c) => c.sha)).toEqual(log('main', '--', 'a.txt'));
    expect(all[1]?.commit.message).toBe('Edit a 3\n\nbody 3');
  });

  it('gives a commit its files with the rename named, and GraphQL history in git log order', async () => {
    const { data } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'log', ref: 'main' });
    expect(data.files?.map((f) => ({ filename: f.filename, status: f.status, previous: f.previous_filename }))).toEqual([{ filename: 'docs/b.txt', status: 'renamed', previous: 'b.txt' }]);
    const head = log('main')[0];
    const answer = await octokit.graphql<{
      repository: { object: { history: { nodes: { oid: string; parents: { nodes: { oid: string }[] } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } };
    }>(
      `query($oid: GitObjectID!) { repository(owner: "acme", name: "log") { object(oid: $oid) { ... on Commit { history(first: 3) { nodes { oid parents(first: 2) { nodes { oid } } } pageInfo { hasNextPage endCursor } } } } } }`,
      { oid: head },
    );
    const page = answer.repository.object.history;
    expect(page.nodes.map((n) => n.oid)).toEqual(log('main').slice(0, 3));
    expect(page.nodes[0]?.parents.nodes.map((p) => p.oid)).toEqual([log('main')[1]]);
    expect(page.pageInfo.hasNextPage).toBe(true);
  });

  it("gives each file's patch from the first @@, and a commit's change counts over GraphQL, as git does", async () => {
    const edit = log('main')[1]!;
    const { data } = await octokit.rest.repos.getCommit({ owner: 'acme', repo: 'log', ref: edit });
    const git = execFileSync('git', ['-C', dir, 'show', '--format=', edit], { encoding: 'utf8' });
    expect(data.files?.map((f) => f.patch)).toEqual([git.slice(git.indexOf('@@')).replace(/\n$/, '')]);
    const answer = await octokit.graphql<{ repository: { c: { changedFilesIfAvailable: number; additions: number; deletions: number; file: { oid: string } } } }>(
      `query($oid: GitObjectID!) { repository(owner: "acme", name: "log") { c: object(oid: $oid) { ... on Commit { changedFilesIfAvailable additions deletions file(path: "a.txt") { oid } } } } }`,
      { oid: edit },
    );
    const blob = execFileSync('git', ['-C', dir, 'rev-parse', `${edit}:a.txt`], { encoding: 'utf8' }).trim();
    expect(answer.repository.c).toEqual({ changedFilesIfAvailable: 1, additions: 1, deletions: 1, file: { oid: blob } });
  });
});
