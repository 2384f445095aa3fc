// Sign in with GitHub end to end against the GitHub stand-in: the official MCP SDK OAuth
// client discovers gitdex from a 401, registers, signs alice in through GitHub's consent and
// reads acme/sdk's private file; bob, signed in the same way, gets the nonexistent answer.
// Then each token rule on its own: a replayed code, a wrong verifier, a foreign redirect URI,
// a token for another resource, an expired and a revoked token, a refresh token used twice.
import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { CANARY, MACHINE_TOKEN, startSignInWorld, type SignInWorld } from '../support/sign-in-world';
import { browse as browseTo, REDIRECT, SignInAs } from '../support/sign-in-client';

const browse = (world: SignInWorld, start: string, login: string) => browseTo(world.standIn.url, start, login);
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('sign in with GitHub', () => {
  let world: SignInWorld;
  beforeAll(async () => {
    world = await startSignInWorld();
  });
  afterAll(() => world?.close());

  const form = (url: string, body: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, string>,
    }));
  const readFile = (token: string, base = world.url) => fetch(`${base}/v1/repositories/acme/sdk/files/src/index.ts`, { headers: { authorization: `Bearer ${token}` } });

  /** A client registered by DCR, signed in as `login`: its code and verifier, ready to trade. */
  async function authorized(login: string, extra: Record<string, string> = {}, base = world.url) {
    const registered = (await (
      await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'raw' }),
      })
    ).json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${base}/oauth/authorize`);
    const params = {
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
      state: 'st-1',
      resource: `${base}/`,
      ...extra,
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const back = await browse(world, url.href, login);
    return { clientId: registered.client_id, verifier, back, code: back.searchParams.get('code') ?? '' };
  }
  const trade = (a: { clientId: string; verifier: string; code: string }, overrides: Record<string, string> = {}, base = world.url) =>
    form(`${base}/oauth/token`, { grant_type: 'authorization_code', client_id: a.clientId, code: a.code, code_verifier: a.verifier, redirect_uri: REDIRECT, resource: `${base}/`, ...overrides });

  test('a call without a token is 401 naming the resource metadata, which names gitdex as the authorization server', async () => {
    for (const path of ['/mcp', '/v1/repositories']) {
      const response = await fetch(`${world.url}${path}`, path === '/mcp' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(`Bearer realm="gitdex", resource_metadata="${world.url}/.well-known/oauth-protected-resource"`);
    }
    const resource = (await (await fetch(`${world.url}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${world.url}/`, authorization_servers: [`${world.url}/`] });
    const server = (await (await fetch(`${world.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ authorization_endpoint: `${world.url}/oauth/authorize`, token_endpoint: `${world.url}/oauth/token`, code_challenge_methods_supported: ['S256'] });
    // Machines keep their static tokens.
    expect((await fetch(`${world.url}/v1/repositories/acme/open`, { headers: { authorization: `Bearer ${MACHINE_TOKEN}` } })).status).toBe(200);
  });

  test('the MCP SDK OAuth client signs alice in and she reads the private file; bob, signed in, gets the nonexistent answer', async () => {
    const read = async (login: string) => {
      const provider = new SignInAs(() => world.standIn.url, login);
      const first = new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), { authProvider: provider });
      await expect(new Client({ name: 'sign-in-test', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
      await first.finishAuth(provider.code ?? '');
      const client = new Client({ name: 'sign-in-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${world.url}/mcp`), { authProvider: provider }));
      const text = async (repository: string) => {
        const result = (await client.callTool({ name: 'read_file', arguments: { repository, path: 'src/index.ts' } })) as { content: { text: string }[]; isError?: boolean };
        return { isError: result.isError ?? false, text: result.content.map((c) => c.text).join('') };
      };
      const answers = { sdk: await text('acme/sdk'), ghost: await text('acme/sdq') };
      await client.close();
      return { answers, token: provider.tokens()?.access_token ?? '' };
    };
    const alice = await read('alice');
    expect(alice.answers.sdk.text).toContain(CANARY);
    expect(alice.token.startsWith('gdx_at_')).toBe(true);
    const bob = await read('bob');
    expect(bob.answers.sdk.isError).toBe(true);
    expect(bob.answers.sdk.text.replaceAll('acme/sdk', 'NAME')).toBe(bob.answers.ghost.text.replaceAll('acme/sdq', 'NAME'));
    // GitHub's token never reaches the client, and the store holds it sealed only.
    const person = await world.store.get<{ github: string }>('person', String(world.standIn.users.user('alice')?.id), new Date('2026-06-01T00:00:01Z'));
    expect(person?.github.startsWith('v1.')).toBe(true);
  });

  test('an authorization code works once: a replay is refused and ends every token it gave', async () => {
    const a = await authorized('alice');
    expect(a.back.searchParams.get('state')).toBe('st-1');
    const first = await trade(a);
    expect(first.status).toBe(200);
    expect((await readFile(first.body.access_token!)).status).toBe(200);
    const replay = await trade(a);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await readFile(first.body.access_token!)).status).toBe(401);
    expect((await form(`${world.url}/oauth/token`, { grant_type: 'refresh_token', client_id: a.clientId, refresh_token: first.body.refresh_token! })).status).toBe(400);
  });

  test('a wrong verifier is refused; a foreign redirect URI is never redirected to, at authorize or at the token', async () => {
    const a = await authorized('alice');
    expect(await trade(a, { code_verifier: randomBytes(32).toString('base64url') })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await trade(a, { redirect_uri: 'http://127.0.0.1:33418/elsewhere' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const foreign = new URL(`${world.url}/oauth/authorize`);
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: a.clientId,
      redirect_uri: 'https://attacker.example/cb',
      code_challenge: challengeOf('x'.repeat(43)),
      code_challenge_method: 'S256',
    }))
      foreign.searchParams.set(key, value);
    const refused = await fetch(foreign, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    // Without PKCE, no authorization at all.
    const plain = new URL(foreign);
    plain.searchParams.set('redirect_uri', REDIRECT);
    plain.searchParams.delete('code_challenge_method');
    expect((await fetch(plain, { redirect: 'manual' })).headers.get('location')).toMatch(/error=invalid_request/);
  });

  test('tokens are for this gitdex only: another resource is refused at authorize, and a token another gitdex issued is 401 here', async () => {
    const elsewhere = await authorized('alice', { resource: 'https://other.example/' });
    expect(elsewhere.back.searchParams.get('error')).toBe('invalid_target');
    // Another gitdex at another address, on the same store: its token names it as the resource.
    const other = world.other.url;
    const theirs = await authorized('alice', { resource: `${other}/` }, other);
    const token = (await trade(theirs, { resource: `${other}/` }, other)).body.access_token!;
    expect((await readFile(token, other)).status).toBe(200);
    expect((await readFile(token)).status).toBe(401);
  });

  test('an expired access token is 401 and a refresh gives a new one; a revoked one is 401', async () => {
    const a = await authorized('alice');
    const tokens = (await trade(a)).body;
    world.advance(15 * 60_000 + 1);
    const expired = await readFile(tokens.access_token!);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const renewed = await form(`${world.url}/oauth/token`, { grant_type: 'refresh_token', client_id: a.clientId, refresh_token: tokens.refresh_token! });
    expect(renewed.status).toBe(200);
    expect((await readFile(renewed.body.access_token!)).status).toBe(200);
    expect((await form(`${world.url}/oauth/revoke`, { client_id: a.clientId, token: renewed.body.access_token! })).status).toBe(200);
    expect((await readFile(renewed.body.access_token!)).status).toBe(401);
  });

  test('a refresh token used twice revokes its whole sign-in, the tokens of the first use included', async () => {
    const a = await authorized('alice');
    const tokens = (await trade(a)).body;
    const refresh = { grant_type: 'refresh_token', client_id: a.clientId, refresh_token: tokens.refresh_token! };
    const rotated = await form(`${world.url}/oauth/token`, refresh);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(await form(`${world.url}/oauth/token`, refresh)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await readFile(rotated.body.access_token!)).status).toBe(401);
    expect((await form(`${world.url}/oauth/token`, { ...refresh, refresh_token: rotated.body.refresh_token! })).status).toBe(400);
  });

  test('an expiring GitHub user token is renewed with its refresh token before it ends, so the permission refresh keeps the person', async () => {
    const admin = (body: unknown) => fetch(`${world.standIn.url}/_admin/oauth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await admin({ token_seconds: 8 * 3600 });
    try {
      await trade(await authorized('alice'));
      const aliceId = world.standIn.users.user('alice')!.id;
      const first = await world.signIn.provider.gitHubTokenOf(aliceId);
      world.advance(60_000);
      expect(await world.signIn.provider.gitHubTokenOf(aliceId)).toBe(first);
      world.advance(8 * 3600_000 - 3 * 60_000);
      const renewed = await world.signIn.provider.gitHubTokenOf(aliceId);
      expect(renewed).not.toBe(first);
      expect(world.standIn.users.tokenOwner(renewed!)?.login).toBe('alice');
      expect(await world.mirror.refresh(aliceId)).toBe(true);
    } finally {
      await admin({ token_seconds: null });
    }
  });

  test('a person whose GitHub authorization is revoked is signed out everywhere', async () => {
    const a = await authorized('alice');
    const tokens = (await trade(a)).body;
    expect((await readFile(tokens.access_token!)).status).toBe(200);
    const aliceId = world.standIn.users.user('alice')!.id;
    await world.mirror.revoke(aliceId);
    expect((await readFile(tokens.access_token!)).status).toBe(401);
    expect((await world.signIn.provider.signedIn()).filter((grant) => grant.login === 'alice')).toEqual([]);
  });
});
