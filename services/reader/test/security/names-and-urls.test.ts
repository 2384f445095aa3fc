import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parsePublishedSites } from '@gitdex/contracts';
import { GitHubSource } from '@gitdex/github';
import { depsFor, rpc, serve, type Served } from './helpers';
import { createSecurityWorld, PUBLISHED_SITES, TOKENS, type SecurityWorld } from './world';

/** A GitHub that answers every path (as GET /user would, with the owner of gitdex's token) and keeps the paths asked. */
async function github(): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ login: 'gitdex-bot', id: 4242, email: 'bot@example.com' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

/** A GET with the path exactly as written: fetch would resolve %2E%2E as a dot segment before sending it. */
function rawGet(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A tool call over HTTP (POST /mcp) as a client sends it: the answer's text and error code. */
async function tool(url: string, name: string, args: Record<string, unknown>, token?: string): Promise<{ status: number; code: string | null; text: string }> {
  const answer = await rpc(url, 'tools/call', { name, arguments: args }, token ? { authorization: `Bearer ${token}` } : {});
  const result = answer.body?.result as { isError?: boolean; content?: { text?: string }[]; _meta?: Record<string, { code?: string }> } | undefined;
  return { status: answer.status, code: result?.isError ? (result._meta?.['gitdex/error']?.code ?? 'UNKNOWN') : null, text: (result?.content ?? []).map((c) => c.text ?? '').join('\n') };
}

describe('names and URLs callers give (HTTP, the real reader on SQLite, GitHub lookups through the GitHub adapter)', () => {
  let world: SecurityWorld;
  let gh: Awaited<ReturnType<typeof github>>;
  let served: Served;

  beforeAll(async () => {
    world = await createSecurityWorld();
    gh = await github();
    const source = new GitHubSource({ baseUrl: gh.url, token: 'ghs_gitdex_token_0123456789' });
    const { sites, problems } = parsePublishedSites(PUBLISHED_SITES);
    expect(problems).toEqual([]);
    // The admin token's pattern * covers any name: every unseen name it asks about is looked up on GitHub.
    served = await serve(depsFor(world, { sites, lookup: (name) => source.repositoryByName(name), queueUnseen: 'tokens' }));
  });
  afterAll(async () => {
    await served.close();
    gh.server.close();
  });

  const BAD_NAMES = [
    '../user',
    '../rate_limit',
    'octo/..',
    './user',
    '..%2Frate_limit/x',
    'https://github.com/..%2Frate_limit/x',
    'https://github.com/..%2Fuser/x/blob/main/a.md',
    'git@github.com:../user.git',
    'oc--to/x',
    'octo/a b',
  ];

  test.each(BAD_NAMES)('%s: a bad argument for every tool, and GitHub is never asked', async (name) => {
    for (const [name_, args] of [
      ['repository_overview', { repository: name }],
      ['read_file', { repository: name, path: 'README.md' }],
      ['list_files', { repository: name }],
      ['suggest_paths', { repository: name, query: 'x' }],
      ['repositories_state', { repositories: [name] }],
    ] as const) {
      const answer = await tool(served.url, name_, args, TOKENS.adminToken);
      expect({ tool: name_, status: answer.status, code: answer.code }).toEqual({ tool: name_, status: 200, code: 'INVALID_ARGUMENT' });
      expect(answer.text).toMatch(/repository: .* is not "owner\/name"|not a GitHub repository URL/);
    }
    expect(gh.paths).toEqual([]);
  });

  test('REST: a dot-segment owner in the path is 400 INVALID_ARGUMENT, never a request to GitHub', async () => {
    for (const path of ['/v1/repositories/%2E%2E/user', '/v1/repositories/..%2Frate_limit/x/files/README.md', '/v1/repositories/octo/%2E%2E/tree']) {
      const response = await rawGet(served.url, path, { authorization: `Bearer ${TOKENS.adminToken}` });
      const body = JSON.parse(response.body) as { error?: { code?: string } };
      expect({ path, status: response.status, code: body.error?.code }).toEqual({ path, status: 400, code: 'INVALID_ARGUMENT' });
    }
    expect(gh.paths).toEqual([]);
  });

  test('a good unseen name is looked up as /repos/{owner}/{name} and nothing else', async () => {
    await tool(served.url, 'repository_overview', { repository: 'octo/some-thing.js' }, TOKENS.adminToken);
    expect(gh.paths).toEqual(['/repos/octo/some-thing.js']);
    gh.paths.length = 0;
  });

  test('published URLs: nested pages still resolve; a malformed escape is a bad argument, not an internal error', async () => {
    const leaf = await tool(served.url, 'read_file', { path: 'https://docs.example.com/deep/a/b/c/d/e/f/g/h/i/j/k/leaf' });
    expect(leaf).toMatchObject({ code: null });
    expect(leaf.text).toContain('docs/deep/a/b/c/d/e/f/g/h/i/j/k/leaf.md');
    const malformed = await tool(served.url, 'read_file', { path: 'https://docs.example.com/%E0%A4%A/b/c' });
    expect(malformed.code).toBe('INVALID_ARGUMENT');
    expect(malformed.text).toMatch(/malformed percent-escape/);
  });

  test('published URLs: past 2,048 characters refused as such; the worst URL within it answers (matching is linear, no backtracking regex)', async () => {
    const tooLong = await tool(served.url, 'read_file', { path: `https://docs.example.com/${'a/'.repeat(2000)}\u2028x` });
    expect(tooLong.code).toBe('INVALID_ARGUMENT');
    expect(tooLong.text).toMatch(/at most 2,048/);
    // Three placeholders and a line separator at the end: the old regex backtracked over every split (fourth power of the length).
    const worst = await tool(served.url, 'read_file', { path: `https://docs.example.com/${'a/'.repeat(1000)}\u2028x` });
    expect(worst.code).toBe('INVALID_ARGUMENT');
  });

  test('an unknown URL lists only the sites whose repository the caller may read', async () => {
    const anonymous = await tool(served.url, 'read_file', { path: 'https://elsewhere.example.org/x' });
    expect(anonymous.code).toBe('INVALID_ARGUMENT');
    expect(anonymous.text).toContain('https://docs.example.com/{a}/{b}/{c} (acme/tools:docs/{a}/{b}/{c}.md)');
    for (const hidden of ['internal-x9', 'internal.example.com', 'hidden-org', 'pending-q7', 'unindexed.example.com']) expect(anonymous.text).not.toContain(hidden);
    const acme = await tool(served.url, 'read_file', { path: 'https://elsewhere.example.org/x' }, TOKENS.acmeToken);
    expect(acme.text).toContain('https://internal.example.com/{page} (acme/internal-x9:docs/{page}.md)');
    expect(acme.text).not.toContain('pending-q7');
  });

  test("a private site's URL with another repository does not name the site's repository", async () => {
    const answer = await tool(served.url, 'read_file', { repository: 'acme/tools', path: 'https://internal.example.com/guide' });
    expect(answer.code).toBe('INVALID_ARGUMENT');
    expect(answer.text).not.toContain('internal-x9');
  });

  test('a page of a site whose repository the caller may not read (or gitdex has not indexed) answers like a URL of no site, and is read by one who may', async () => {
    const unknown = await tool(served.url, 'read_file', { path: 'https://elsewhere.example.org/x' });
    for (const page of ['https://internal.example.com/guide', 'https://unindexed.example.com/x']) {
      const answer = await tool(served.url, 'read_file', { path: page });
      expect(answer).toEqual({ ...unknown, text: unknown.text.replace('https://elsewhere.example.org/x', page) });
      for (const hidden of ['internal-x9', 'hidden-org', 'pending-q7']) expect(answer.text).not.toContain(hidden);
    }
    const acme = await tool(served.url, 'read_file', { path: 'https://internal.example.com/guide' }, TOKENS.acmeToken);
    expect(acme.text).not.toMatch(/not a GitHub URL nor a page/);
    expect(acme.text).toContain('acme/internal-x9');
  });
});
