import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortError } from '@gitdex/ports';
import { GitHubClients, GitHubSource } from '../src';

/** A GitHub that answers every path (as /user would, with the token's owner) and keeps the paths asked. */
async function github(): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: 1, login: 'gitdex-bot', full_name: 'x/y', default_branch: 'main', private: false, html_url: 'https://github.com/x/y' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

const invalid = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof PortError ? error.code : String(error)),
  );

describe('no request path is built from a name GitHub never allows', () => {
  let gh: Awaited<ReturnType<typeof github>>;
  beforeAll(async () => {
    gh = await github();
  });
  afterAll(() => gh.server.close());

  test('the source refuses dot segments and foreign characters before any request: GET /repos/../user would be GET /user with gitdex’s token', async () => {
    const source = new GitHubSource({ baseUrl: gh.url, token: 'ghs_test_token_0123456789' });
    const repository = (fullName: string) => ({ id: 1, fullName, defaultBranch: 'main', private: false, archived: false, htmlUrl: 'https://github.com/x/y' });
    for (const name of ['../user', 'octo/..', './x', '..%2Frate_limit/x', 'a/b/c', 'octo/a?b', 'octo/a#b']) {
      expect({ name, lookup: await invalid(source.repositoryByName(name)) }).toEqual({ name, lookup: 'INVALID' });
      expect({ name, head: await invalid(source.head(repository(name), 'main')) }).toEqual({ name, head: 'INVALID' });
      expect({ name, tarball: await invalid(source.tarball(repository(name), 'a'.repeat(40))) }).toEqual({ name, tarball: 'INVALID' });
    }
    expect(gh.paths).toEqual([]);
    await source.repositoryByName('octo/api');
    expect(gh.paths).toEqual(['/repos/octo/api']);
    gh.paths.length = 0;
  });

  test('any octokit request of the clients is checked too, whichever method builds it', async () => {
    const client = new GitHubClients({ baseUrl: gh.url, token: 'ghs_test_token_0123456789' }).forInstallation();
    expect(await invalid(client.rest.repos.get({ owner: '..', repo: 'user' }))).toBe('INVALID');
    expect(await invalid(client.request('GET /repos/{owner}/{repo}/branches', { owner: 'octo', repo: '..' }))).toBe('INVALID');
    expect(gh.paths).toEqual([]);
    await client.request('GET /repositories/{repository_id}', { repository_id: 7 });
    expect(gh.paths).toEqual(['/repositories/7']);
  });
});
