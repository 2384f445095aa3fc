// Repository lifecycle in the GitHub stand-in: renames and transfers keep ids (old names
// redirect), deletion, private repositories, ids across restarts, GitHub App installation tokens.
import { generateKeyPairSync } from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { createTestOctokit, StandInOctokit, statusOf, type StandInOctokitInstance } from '../github-standin/test-octokit';

const TOKEN = 'test-token';
const OWNER = 'octo-org';

describe('GitHub stand-in repository renames', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let octokit: StandInOctokitInstance;

  beforeAll(async () => {
    root = await makeTempRoot();
    standIn = await createGitHubStandIn({ root, token: TOKEN });
    octokit = createTestOctokit({ baseUrl: standIn.url, token: TOKEN }).octokit;
  });

  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  it('keeps the id of a renamed repository and redirects its old name', async () => {
    const renamed = await createRepo(root, OWNER, 'old-name', { 'a.txt': 'a\n' });
    const id = await standIn.repoId(OWNER, renamed.name);
    const result = await standIn.rename(OWNER, 'old-name', { newName: 'new-name' });
    expect(result.repository).toMatchObject({ id, full_name: `${OWNER}/new-name` });
    expect(result.deliveries).toEqual([]);
    const byOldName = await octokit.rest.repos.get({ owner: OWNER, repo: 'old-name' });
    expect(byOldName.data).toMatchObject({ id, full_name: `${OWNER}/new-name` });
    const transfer = await fetch(`${standIn.url}/_admin/repos/${OWNER}/new-name/rename`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ new_owner: 'someone-else' }),
    });
    expect(transfer.status).toBe(200);
    const byId = await octokit.request('GET /repositories/{id}', { id });
    expect(byId.data.full_name).toBe('someone-else/new-name');
    const removed = await fetch(`${standIn.url}/_admin/repos/someone-else/new-name`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await statusOf(octokit.request('GET /repositories/{id}', { id }))).toMatchObject({ status: 404 });
    expect(await statusOf(octokit.rest.repos.get({ owner: 'someone-else', repo: 'new-name' }))).toMatchObject({ status: 404 });
  });
});

describe('GitHub stand-in as a GitHub App', () => {
  it('mints installation tokens for @octokit/auth-app and accepts them', async () => {
    const root = await makeTempRoot();
    const standIn = await createGitHubStandIn({ root, token: 'ghs_installation', installationId: 77 });
    try {
      await createRepo(root, 'octo', 'app-repo', { 'a.txt': 'a\n' });
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
      const octokit = new StandInOctokit({
        baseUrl: standIn.url,
        authStrategy: createAppAuth,
        auth: { appId: 1, privateKey, installationId: 77 },
        throttle: { onRateLimit: () => false, onSecondaryRateLimit: () => false },
      });
      const { data } = await octokit.rest.repos.get({ owner: 'octo', repo: 'app-repo' });
      expect(data.full_name).toBe('octo/app-repo');
      const installation = await octokit.rest.apps.getRepoInstallation({ owner: 'octo', repo: 'app-repo' });
      expect(installation.data.id).toBe(77);
      const repos = await octokit.rest.apps.listReposAccessibleToInstallation();
      expect(repos.data.repositories.map((r) => r.full_name)).toEqual(['octo/app-repo']);
      expect(standIn.requests.counts()).toMatchObject({ 'POST /app/installations/:installation_id/access_tokens': 1 });
    } finally {
      await standIn.close();
      await removeTempRoot(root);
    }
  });
});

describe('GitHub stand-in without a token', () => {
  let root: string;
  let standIn: GitHubStandIn;

  beforeAll(async () => {
    root = await makeTempRoot();
    await createRepo(root, 'octo', 'secret', { 'a.txt': 'a\n' });
    standIn = await createGitHubStandIn({ root });
  });
  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  it('hides private repositories from anonymous requests', async () => {
    const anonymous = createTestOctokit({ baseUrl: standIn.url }).octokit;
    const authenticated = createTestOctokit({ baseUrl: standIn.url, token: 'anything' }).octokit;
    expect((await anonymous.rest.repos.get({ owner: 'octo', repo: 'secret' })).data.private).toBe(false);
    const visibility = await fetch(`${standIn.url}/_admin/repos/octo/secret/visibility`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"private": true}' });
    expect(visibility.status).toBe(200);
    expect(await statusOf(anonymous.rest.repos.get({ owner: 'octo', repo: 'secret' }))).toMatchObject({ status: 404 });
    const { data } = await authenticated.rest.repos.get({ owner: 'octo', repo: 'secret' });
    expect(data).toMatchObject({ private: true, visibility: 'private' });
  });

  it('keeps ids stable across restarts', async () => {
    const id = await standIn.repoId('octo', 'secret');
    const again = await createGitHubStandIn({ root });
    try {
      expect(await again.repoId('octo', 'secret')).toBe(id);
    } finally {
      await again.close();
    }
  });
});
