// Sign-in as the product runs it (loadEnv → runGitdex, role all, embedded engines) in front of
// the GitHub stand-in: the MCP SDK's OAuth client signs alice in, `gitdex people` shows her, and
// her revoking gitdex on GitHub (the github_app_authorization webhook, delivered by the
// stand-in to gitdex's webhook route) ends her tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runGitdex, type RunningGitdex } from '../../services/gitdex/src/run';
import { peopleCommand } from '../../services/gitdex/src/cli/people-command';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { SignInAs } from '../support/sign-in-client';

const SECRET = 'sign-in-product-webhook-secret-0123456789';
const APP = { client_id: 'Iv23li-product', client_secret: 'product-client-secret-0123456789' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sign-in in the product', () => {
  let root: string;
  let dataDir: string;
  let standIn: GitHubStandIn;
  let gitdex: RunningGitdex;
  beforeAll(async () => {
    root = await makeTempRoot('gitdex-sign-in-product-');
    dataDir = mkdtempSync(join(tmpdir(), 'gitdex-sign-in-product-data-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    standIn = await createGitHubStandIn({ root, webhookUrl: `${url}/webhooks/github`, secret: SECRET });
    await createRepo(root, 'acme', 'sdk', { 'README.md': '# SDK\n' });
    await standIn.setVisibility('acme', 'sdk', true, { deliver: false });
    for (const [path, body] of [
      ['/_admin/oauth', APP],
      ['/_admin/users', { login: 'alice', repositories: { 'acme/sdk': 'read' }, deliver: false }],
    ] as const) {
      expect((await fetch(`${standIn.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status).toBe(200);
    }
    const env = loadEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      GITDEX_DATA_DIR: join(dataDir, 'data'),
      GITHUB_API_URL: standIn.url,
      GITHUB_WEB_URL: standIn.url,
      GITHUB_WEBHOOK_SECRETS: SECRET,
      GITDEX_PUBLIC_URL: url,
      GITDEX_GITHUB_OAUTH_CLIENT_ID: APP.client_id,
      GITDEX_GITHUB_OAUTH_CLIENT_SECRET: APP.client_secret,
      GITDEX_TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
      GITDEX_REQUIRE_AUTH: 'true',
      GITDEX_RECONCILE_INTERVAL_SECONDS: '0',
    });
    gitdex = await runGitdex(env, 'all', createLogger({ level: 'silent' }));
  });
  afterAll(async () => {
    await gitdex?.close();
    await standIn?.close();
    if (root) await removeTempRoot(root);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('alice signs in with the SDK client, the operator sees her, and revoking gitdex on GitHub ends her tokens', async () => {
    const provider = new SignInAs(() => standIn.url, 'alice');
    const first = new StreamableHTTPClientTransport(new URL(`${gitdex.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'product', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
    await first.finishAuth(provider.code ?? '');
    const client = new Client({ name: 'product', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gitdex.url}/mcp`), { authProvider: provider }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();

    const lines: string[] = [];
    await peopleCommand({ env: loadEnv({}), adapters: gitdex.adapters, out: { log: (line) => lines.push(line), error: () => undefined } }, { json: true });
    const people = JSON.parse(lines.join('\n')) as { people: { login: string; readableRepositories: number; signIns: { client: string }[] }[] };
    expect(people.people).toEqual([expect.objectContaining({ login: 'alice', readableRepositories: 1, signIns: [expect.objectContaining({ client: 'sdk client of alice' })] })]);

    const token = provider.tokens()?.access_token ?? '';
    expect((await fetch(`${gitdex.url}/v1/repositories`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const revoked = (await (await fetch(`${standIn.url}/_admin/users/alice/revoke`, { method: 'POST' })).json()) as { deliveries: { status: number }[] };
    expect(revoked.deliveries.map((d) => d.status)).toEqual([202]);
    expect((await fetch(`${gitdex.url}/v1/repositories`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});
