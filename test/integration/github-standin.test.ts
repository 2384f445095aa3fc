// The GitHub stand-in consumed through a real Octokit (retry + throttling plugins): repositories
// by name and id, branches, commits, compare, errors, auth, ETags and request counters.
import { commitFiles, createBranch, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { routeKey } from '../github-standin/route-patterns';
import { createSampleRepo, type SampleRepo } from '../github-standin/sample-repo';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { createTestOctokit, statusOf, type StandInOctokitInstance } from '../github-standin/test-octokit';

const TOKEN = 'test-token';
const OWNER = 'octo-org';
const REPO = 'hello-world';

describe('GitHub stand-in REST API', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let octokit: StandInOctokitInstance;
  let sample: SampleRepo;
  let head: string;
  let featureHead: string;

  beforeAll(async () => {
    root = await makeTempRoot();
    sample = await createSampleRepo(root, OWNER, REPO);
    ({ head, featureHead } = sample);
    await createRepo(root, OWNER, 'empty');
    standIn = await createGitHubStandIn({ root, token: TOKEN });
    octokit = createTestOctokit({ baseUrl: standIn.url, token: TOKEN }).octokit;
  });

  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  beforeEach(() => {
    standIn.faults.clear();
    standIn.requests.reset();
  });

  it('serves a repository by name (case-insensitively) and by id', async () => {
    const { data, headers } = await octokit.rest.repos.get({ owner: OWNER, repo: REPO });
    expect(data).toMatchObject({
      name: REPO,
      full_name: `${OWNER}/${REPO}`,
      private: false,
      visibility: 'public',
      default_branch: 'main',
      archived: false,
      html_url: `https://github.com/${OWNER}/${REPO}`,
      owner: { login: OWNER, type: 'User' },
    });
    expect(data.id).toBe(await standIn.repoId(OWNER, REPO));
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['x-github-request-id']).toBeTruthy();
    expect(headers['x-ratelimit-resource']).toBe('core');
    expect(Number(headers['x-ratelimit-limit'])).toBe(5000);
    expect(Number(headers['x-ratelimit-remaining'])).toBe(5000 - Number(headers['x-ratelimit-used']));

    const upper = await octokit.rest.repos.get({ owner: OWNER.toUpperCase(), repo: 'Hello-World' });
    expect(upper.data.id).toBe(data.id);
    const byId = await octokit.request('GET /repositories/{id}', { id: data.id });
    expect(byId.data).toMatchObject({ id: data.id, full_name: `${OWNER}/${REPO}` });
    const branchesById = await octokit.request('GET /repositories/{id}/branches', { id: data.id });
    expect(branchesById.data.map((b: { name: string }) => b.name)).toEqual(['feature/x', 'main']);
  });

  it('requires the configured token', async () => {
    const anonymous = createTestOctokit({ baseUrl: standIn.url }).octokit;
    expect(await statusOf(anonymous.rest.repos.get({ owner: OWNER, repo: REPO }))).toEqual({ status: 401, message: 'Bad credentials' });
    const wrong = createTestOctokit({ baseUrl: standIn.url, token: 'nope' }).octokit;
    expect(await statusOf(wrong.rest.repos.get({ owner: OWNER, repo: REPO }))).toEqual({ status: 401, message: 'Bad credentials' });
    const bearer = await fetch(`${standIn.url}/repos/${OWNER}/${REPO}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bearer.status).toBe(200);
  });

  it('serves branches, with pagination', async () => {
    const main = await octokit.rest.repos.getBranch({ owner: OWNER, repo: REPO, branch: 'main' });
    expect(main.data).toMatchObject({ name: 'main', protected: false, commit: { sha: head } });
    const feature = await octokit.rest.repos.getBranch({ owner: OWNER, repo: REPO, branch: 'feature/x' });
    expect(feature.data.commit.sha).toBe(featureHead);
    const firstPage = await octokit.rest.repos.listBranches({ owner: OWNER, repo: REPO, per_page: 1 });
    expect(firstPage.data).toHaveLength(1);
    expect(firstPage.headers.link).toContain('rel="next"');
    const all = await octokit.paginate(octokit.rest.repos.listBranches, { owner: OWNER, repo: REPO, per_page: 1 });
    expect(all.map((b) => [b.name, b.commit.sha])).toEqual([
      ['feature/x', featureHead],
      ['main', head],
    ]);
    expect(await statusOf(octokit.rest.repos.getBranch({ owner: OWNER, repo: REPO, branch: 'nope' }))).toEqual({ status: 404, message: 'Branch not found' });
  });

  it('serves commits by branch, tag and (short) sha, and git objects', async () => {
    const byBranch = await octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'main' });
    expect(byBranch.data.sha).toBe(head);
    expect(byBranch.data.commit.message).toBe('Add submodule vendor/lib');
    expect(byBranch.data.commit.committer?.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(byBranch.data.files?.map((f) => [f.filename, f.status])).toEqual([
      ['.gitmodules', 'added'],
      ['vendor/lib', 'added'],
    ]);
    const byTag = await octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'v1.0' });
    expect(byTag.data.sha).toBe(head);
    const byShort = await octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: featureHead.slice(0, 7) });
    expect(byShort.data.sha).toBe(featureHead);
    expect(byShort.data.parents.map((p) => p.sha)).toEqual([head]);
    const shaOnly = await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}', { owner: OWNER, repo: REPO, ref: 'feature/x', headers: { accept: 'application/vnd.github.sha' } });
    expect(shaOnly.data).toBe(featureHead);

    const gitCommit = await octokit.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: head });
    expect(gitCommit.data.tree.sha).toBe(byBranch.data.commit.tree.sha);
    const ref = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/feature/x' });
    expect(ref.data.object).toMatchObject({ sha: featureHead, type: 'commit' });
    const tag = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'tags/v1.0' });
    expect(tag.data.object.type).toBe('tag');
    const matching = await octokit.rest.git.listMatchingRefs({ owner: OWNER, repo: REPO, ref: 'heads/' });
    expect(matching.data.map((r) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
  });

  it('compares commits', async () => {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner: OWNER, repo: REPO, basehead: `main...feature/x` });
    expect(data).toMatchObject({ status: 'ahead', ahead_by: 1, behind_by: 0, total_commits: 1, merge_base_commit: { sha: head } });
    expect(data.commits.map((c) => c.sha)).toEqual([featureHead]);
    expect(data.files?.map((f) => [f.filename, f.status])).toEqual([['feature.txt', 'added']]);
    await createBranch(sample.dir, 'other', 'main');
    const fix = await commitFiles(sample.dir, { 'README.md': '# Hello, again\n' }, 'Fix readme', { branch: 'other' });
    const diverged = await octokit.rest.repos.compareCommitsWithBasehead({ owner: OWNER, repo: REPO, basehead: `feature/x...other` });
    expect(diverged.data).toMatchObject({ status: 'diverged', ahead_by: 1, behind_by: 1, commits: [{ sha: fix }] });
    expect(await statusOf(octokit.rest.repos.compareCommitsWithBasehead({ owner: OWNER, repo: REPO, basehead: 'main...nope' }))).toMatchObject({ status: 404 });
  });

  it('answers errors like GitHub', async () => {
    expect(await statusOf(octokit.rest.repos.get({ owner: OWNER, repo: 'missing' }))).toEqual({ status: 404, message: 'Not Found' });
    expect(await statusOf(octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'nope' }))).toEqual({ status: 422, message: 'No commit found for SHA: nope' });
    expect(await statusOf(octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'f'.repeat(40) }))).toEqual({ status: 404, message: 'Not Found' });
    expect(await statusOf(octokit.rest.git.getBlob({ owner: OWNER, repo: REPO, file_sha: 'f'.repeat(40) }))).toEqual({ status: 404, message: 'Not Found' });
    expect(await statusOf(octokit.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: 'f'.repeat(40) }))).toEqual({ status: 404, message: 'Not Found' });
    expect(await statusOf(octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/nope' }))).toEqual({ status: 404, message: 'Not Found' });
    expect(await statusOf(octokit.rest.repos.getCommit({ owner: OWNER, repo: 'empty', ref: 'main' }))).toEqual({ status: 409, message: 'Git Repository is empty.' });
    expect(await statusOf(octokit.rest.git.getTree({ owner: OWNER, repo: 'empty', tree_sha: 'main' }))).toEqual({ status: 409, message: 'Git Repository is empty.' });
    const empty = await octokit.rest.repos.get({ owner: OWNER, repo: 'empty' });
    expect(empty.data.default_branch).toBe('main');
    const raw = await fetch(`${standIn.url}/repos/${OWNER}/missing`, { headers: { authorization: `token ${TOKEN}` } });
    expect(await raw.json()).toEqual({ message: 'Not Found', documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//), status: '404' });
  });

  it('answers 304 to a matching If-None-Match without using the rate limit', async () => {
    const first = await octokit.rest.repos.getBranch({ owner: OWNER, repo: REPO, branch: 'main' });
    const etag = first.headers.etag ?? '';
    expect(etag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    const used = Number(first.headers['x-ratelimit-used']);
    const second = await fetch(`${standIn.url}/repos/${OWNER}/${REPO}/branches/main`, { headers: { authorization: `token ${TOKEN}`, 'if-none-match': etag } });
    expect(second.status).toBe(304);
    expect(Number(second.headers.get('x-ratelimit-used'))).toBe(used);
  });

  it('counts requests per route pattern', async () => {
    const { data: tree } = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main' });
    const blobs = tree.tree.filter((e) => e.type === 'blob').slice(0, 2);
    for (const blob of blobs) await octokit.rest.git.getBlob({ owner: OWNER, repo: REPO, file_sha: blob.sha ?? '' });
    expect(standIn.requests.counts()).toEqual({ [routeKey('tree')]: 1, [routeKey('blob')]: 2 });
    const admin = await (await fetch(`${standIn.url}/_admin/requests`)).json();
    expect(admin).toMatchObject({ total: 3, counts: { [routeKey('blob')]: 2 } });
    expect((await fetch(`${standIn.url}/_admin/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(standIn.requests.total).toBe(0);
  });
});
