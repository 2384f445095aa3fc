import { generateKeyPairSync } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { GitHubSource } from '@gitdex/github';
import { PortError } from '@gitdex/ports';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';

describe('GitHub source adapter against the stand-in', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let repositoryId: number;

  beforeAll(async () => {
    root = await makeTempRoot('gitdex-source-');
    standIn = await createGitHubStandIn({ root, token: 'operator-token', installationId: 4242 });
    await createRepo(root, 'src', 'repo', { 'README.md': '# r\n', 'lib/a.ts': 'export const a = 1;\n' });
    repositoryId = await standIn.repoId('src', 'repo');
  });
  afterAll(async () => {
    await standIn.close();
    await removeTempRoot(root);
  });

  it('authenticates as a GitHub App with installation tokens, and reads by id even after a rename', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const source = new GitHubSource({ baseUrl: standIn.url, app: { appId: 123, privateKey } });
    const repository = await source.repository(repositoryId, 4242);
    expect(repository).toMatchObject({ id: repositoryId, fullName: 'src/repo', defaultBranch: 'main', private: false });
    await standIn.rename('src', 'repo', { newName: 'renamed', deliver: false });
    const renamed = await source.repository(repositoryId, 4242);
    expect(renamed?.fullName).toBe('src/renamed');
    const head = await source.head(renamed!, 'main', 4242);
    expect(head?.sha).toMatch(/^[0-9a-f]{40}$/);
    await standIn.rename('src', 'renamed', { newName: 'repo', deliver: false });
  });

  it('streams a tarball with a token, and maps missing things to null or NOT_FOUND', async () => {
    const source = new GitHubSource({ baseUrl: standIn.url, token: 'operator-token' });
    const repository = (await source.repositoryByName('src/repo'))!;
    const head = (await source.head(repository, 'main'))!;
    const names: string[] = [];
    const tar = extract();
    (await source.tarball(repository, head.sha)).pipe(createGunzip()).pipe(tar);
    for await (const entry of tar) {
      names.push(entry.header.name.replace(/^[^/]+\//, ''));
      entry.resume();
    }
    expect(names).toEqual(expect.arrayContaining(['README.md', 'lib/a.ts']));
    expect(await source.head(repository, 'no-such-branch')).toBeNull();
    expect(await source.repository(999_999_999)).toBeNull();
    await expect(source.blob(repository, 'f'.repeat(40))).rejects.toMatchObject({ code: 'NOT_FOUND', retriable: false });
  });

  it('reports rate limits and 5xx as retriable with the wait GitHub asked for', async () => {
    const source = new GitHubSource({ baseUrl: standIn.url, token: 'operator-token', maxInlineWaitSeconds: 0 });
    const repository = (await source.repositoryByName('src/repo'))!;
    standIn.faults.add({ type: 'rate_limit', kind: 'secondary', count: 5, retryAfter: 7 });
    const limited = await source.head(repository, 'main').catch((e: unknown) => e);
    standIn.faults.clear();
    expect(limited).toBeInstanceOf(PortError);
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', retriable: true });
    expect((limited as PortError).retryAfterMs).toBeGreaterThanOrEqual(7000);

    standIn.faults.add({ type: '5xx', count: 10, status: 502 });
    const down = await source.head(repository, 'main').catch((e: unknown) => e);
    standIn.faults.clear();
    expect(down).toMatchObject({ code: 'UNAVAILABLE', retriable: true });

    const refused = await new GitHubSource({ baseUrl: standIn.url, token: 'wrong' }).head(repository, 'main').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INVALID', retriable: false });
  });
});
