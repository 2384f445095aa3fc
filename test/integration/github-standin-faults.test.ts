// Injected faults of the GitHub stand-in against a real Octokit with the retry and throttling
// plugins: 5xx (retried), primary and secondary rate limits (handlers fire, retry succeeds), latency.
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { routeKey } from '../github-standin/route-patterns';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { createTestOctokit, type LimitEvent, type StandInOctokitInstance } from '../github-standin/test-octokit';

const OWNER = 'octo';
const REPO = 'faulty';

describe('GitHub stand-in faults', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let octokit: StandInOctokitInstance;
  let limits: LimitEvent[];
  let blobSha: string;

  beforeAll(async () => {
    root = await makeTempRoot();
    await createRepo(root, OWNER, REPO, { 'a.txt': 'alpha\n', 'b/c.txt': 'gamma\n' });
    standIn = await createGitHubStandIn({ root, token: 't0k3n' });
    ({ octokit, limits } = createTestOctokit({ baseUrl: standIn.url, token: 't0k3n' }));
    const { data } = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main', recursive: '1' });
    blobSha = data.tree.find((e) => e.path === 'a.txt')?.sha ?? '';
  });

  afterAll(async () => {
    await standIn?.close();
    await removeTempRoot(root);
  });

  beforeEach(() => {
    standIn.faults.clear();
    standIn.requests.reset();
    limits.length = 0;
  });

  it('answers 5xx for the next N requests; the retry plugin recovers', async () => {
    standIn.faults.add({ type: '5xx', status: 502, count: 2, route: '/git/blobs/' });
    const { data } = await octokit.rest.git.getBlob({ owner: OWNER, repo: REPO, file_sha: blobSha });
    expect(Buffer.from(data.content, 'base64').toString()).toBe('alpha\n');
    expect(standIn.requests.list().map((r) => r.status)).toEqual([502, 502, 200]);
    expect(standIn.requests.count('/repos/:owner/:repo/git/blobs/:sha')).toBe(3);
    expect(standIn.faults.list()).toEqual([]);
  });

  it('gives up after the retry budget with the injected status', async () => {
    standIn.faults.add({ type: '5xx', status: 503, count: 10 });
    await expect(octokit.rest.repos.get({ owner: OWNER, repo: REPO })).rejects.toMatchObject({ status: 503 });
    expect(standIn.requests.total).toBe(4); // first try + 3 retries
  });

  it('answers a primary rate limit; onRateLimit fires and the retry succeeds', async () => {
    standIn.faults.add({ type: 'rate_limit', kind: 'primary', count: 1, resetAfterSeconds: 1 });
    const raw = await fetch(`${standIn.url}/repos/${OWNER}/${REPO}`, { headers: { authorization: 'token t0k3n' } });
    expect(raw.status).toBe(403);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(raw.headers.get('x-ratelimit-reset')) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1);
    expect(((await raw.json()) as { message: string }).message).toMatch(/^API rate limit exceeded for /);

    standIn.faults.add({ type: 'rate_limit', kind: 'primary', count: 1, resetAfterSeconds: 1 });
    const { data } = await octokit.rest.repos.get({ owner: OWNER, repo: REPO });
    expect(data.name).toBe(REPO);
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ kind: 'primary', method: 'GET', retryCount: 0 });
    expect(limits[0]?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limits[0]?.retryAfter).toBeLessThanOrEqual(3);
  });

  it('answers a secondary rate limit with retry-after; onSecondaryRateLimit fires and the retry succeeds', async () => {
    standIn.faults.add({ type: 'rate_limit', kind: 'secondary', count: 1, retryAfter: 7, route: '/git/trees/' });
    const { data } = await octokit.rest.git.getTree({ owner: OWNER, repo: REPO, tree_sha: 'main' });
    expect(data.tree.length).toBe(2);
    expect(limits).toEqual([expect.objectContaining({ kind: 'secondary', retryAfter: 7, retryCount: 0 })]);
    expect(standIn.requests.list().map((r) => r.status)).toEqual([403, 200]);
  });

  it('can answer a secondary rate limit with 429', async () => {
    standIn.faults.add({ type: 'rate_limit', kind: 'secondary', status: 429, retryAfter: 2 });
    const raw = await fetch(`${standIn.url}/repos/${OWNER}/${REPO}/branches`, { headers: { authorization: 'token t0k3n' } });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe('2');
    expect(((await raw.json()) as { message: string }).message).toMatch(/secondary rate limit/);
  });

  it('adds latency to matching requests only', async () => {
    // The stand-in's wait is injected: the test sees each delay it was given without spending it.
    const waits: { ms: number; path: string | undefined }[] = [];
    let asking: string | undefined;
    const own = await makeTempRoot();
    await createRepo(own, OWNER, REPO, { 'README.md': '# latency\n' });
    const timed = await createGitHubStandIn({ root: own, token: 't0k3n', sleep: async (ms) => void waits.push({ ms, path: asking }) });
    try {
      const client = createTestOctokit({ baseUrl: timed.url, token: 't0k3n' }).octokit;
      timed.faults.add({ type: 'latency', ms: 1000, count: 1, route: '/branches' });
      for (const [path, call] of [
        ['repo', () => client.rest.repos.get({ owner: OWNER, repo: REPO })],
        ['branches', () => client.rest.repos.listBranches({ owner: OWNER, repo: REPO })],
        ['branches again', () => client.rest.repos.listBranches({ owner: OWNER, repo: REPO })],
      ] as const) {
        asking = path;
        await call();
      }
      expect(waits).toEqual([{ ms: 1000, path: 'branches' }]);
    } finally {
      await timed.close();
      await removeTempRoot(own);
    }
  });

  it('manages faults over HTTP and never faults admin routes', async () => {
    const post = (body: unknown): Promise<Response> => fetch(`${standIn.url}/_admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ type: 'bogus' })).status).toBe(422);
    const created = await post({ type: '5xx', status: 500, count: 5 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ spec: { type: '5xx', status: 500 }, remaining: 5 });
    expect((await fetch(`${standIn.url}/_admin/faults`)).status).toBe(200);
    expect((await fetch(`${standIn.url}/_admin/requests`)).status).toBe(200);
    const api = await fetch(`${standIn.url}/rate_limit`, { headers: { authorization: 'token t0k3n' } });
    expect(api.status).toBe(500);
    expect(await api.json()).toMatchObject({ message: 'Server Error' });
    expect((await fetch(`${standIn.url}/_admin/faults`, { method: 'DELETE' })).status).toBe(204);
    expect(standIn.faults.list()).toEqual([]);
    expect(standIn.requests.counts()).toEqual({ [routeKey('rateLimit')]: 1 });
  });

  it('enforces the configured core rate limit itself', async () => {
    const limited = await createGitHubStandIn({ root, rateLimit: { limit: 2 } });
    try {
      const get = (): Promise<Response> => fetch(`${limited.url}/repos/${OWNER}/${REPO}`);
      expect((await get()).status).toBe(200);
      const second = await get();
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      const third = await get();
      expect(third.status).toBe(403);
      const rate = (await (await fetch(`${limited.url}/rate_limit`)).json()) as { rate: { used: number; remaining: number } };
      expect(rate.rate).toMatchObject({ used: 2, remaining: 0 });
      await fetch(`${limited.url}/_admin/rate_limit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect((await get()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
