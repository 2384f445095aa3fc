// The stand-in's people: OAuth web flow (consent page, code with PKCE, user token), the user API
// the permission mirror reads, and the webhooks GitHub sends when access changes.
import { createHash, randomBytes } from 'node:crypto';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { startWebhookReceiver, type WebhookReceiver } from '../github-standin/webhook-receiver';

const SECRET = 'webhook-secret';
const CLIENT = { id: 'Iv1.gitdex', secret: 'client-secret' };
const REDIRECT = 'http://127.0.0.1:1/callback';

describe('GitHub stand-in users and OAuth', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let receiver: WebhookReceiver;

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${standIn.url}/_admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const api = (path: string, token: string) => fetch(`${standIn.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const readableNames = async (token: string) => ((await (await api('/user/repos?per_page=100', token)).json()) as { full_name: string }[]).map((r) => r.full_name);

  /** The web flow as a browser and a client do it: consent form posted as alice, code exchanged with the verifier. */
  const signIn = async (login: string, verifier = randomBytes(32).toString('base64url')) => {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ client_id: CLIENT.id, redirect_uri: REDIRECT, state: 'st4te', code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await fetch(`${standIn.url}/login/oauth/authorize?${query.toString()}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post" action="/login/oauth/authorize">');
    const consent = await fetch(`${standIn.url}/login/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ...Object.fromEntries(query), login, decision: 'approve' }),
    });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('st4te');
    const code = back.searchParams.get('code') ?? '';
    const exchange = (v: string) =>
      fetch(`${standIn.url}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ client_id: CLIENT.id, client_secret: CLIENT.secret, code, redirect_uri: REDIRECT, code_verifier: v }),
      }).then(async (r) => (await r.json()) as Record<string, string>);
    return { code, exchange };
  };

  beforeAll(async () => {
    root = await makeTempRoot();
    receiver = await startWebhookReceiver(SECRET);
    await createRepo(root, 'acme', 'sdk', { 'README.md': '# sdk\n' });
    await createRepo(root, 'acme', 'site', { 'README.md': '# site\n' });
    standIn = await createGitHubStandIn({ root, webhookUrl: receiver.url, secret: SECRET, organizations: ['acme'], installationId: 7 });
    await standIn.setVisibility('acme', 'sdk', true, { deliver: false });
    await standIn.setVisibility('acme', 'site', true, { deliver: false });
    await admin('/oauth', { client_id: CLIENT.id, client_secret: CLIENT.secret });
  });

  afterAll(async () => {
    await standIn?.close();
    await receiver?.close();
    await removeTempRoot(root);
  });

  it('signs alice in through the consent page; a code works once and only with its verifier', async () => {
    await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'read' } });
    const wrong = await signIn('alice');
    expect(await wrong.exchange('not-the-verifier')).toMatchObject({ error: 'bad_verification_code' });
    const verifier = randomBytes(32).toString('base64url');
    const right = await signIn('alice', verifier);
    const token = await right.exchange(verifier);
    expect(token).toMatchObject({ token_type: 'bearer' });
    expect(await right.exchange(verifier)).toMatchObject({ error: 'bad_verification_code' });
    const me = (await (await api('/user', token.access_token ?? '')).json()) as { login: string; id: number };
    expect(me.login).toBe('alice');
    expect(await readableNames(token.access_token ?? '')).toEqual(['acme/sdk']);
    const installs = (await (await api('/user/installations', token.access_token ?? '')).json()) as { installations: { id: number }[] };
    expect(installs.installations.map((i) => i.id)).toEqual([7]);
    const inInstall = (await (await api('/user/installations/7/repositories', token.access_token ?? '')).json()) as { repositories: { full_name: string }[] };
    expect(inInstall.repositories.map((r) => r.full_name)).toEqual(['acme/sdk']);
    expect((await api('/user', 'ghu_unknown')).status).toBe(401);
  });

  it('delivers member, team, membership and organization webhooks in GitHub shapes as access changes', async () => {
    const sdkId = await standIn.repoId('acme', 'sdk');
    const removed = await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'none' } });
    expect(removed.status).toBe(200);
    const member = receiver.last('member');
    expect(member?.signatureValid).toBe(true);
    expect(member?.body).toMatchObject({ action: 'removed', member: { login: 'alice' }, repository: { id: sdkId, full_name: 'acme/sdk', private: true }, installation: { id: 7 } });

    await admin('/teams', { org: 'acme', slug: 'core', members: ['bob'], repositories: { 'acme/site': 'write' } });
    expect(receiver.last('membership')?.body).toMatchObject({ action: 'added', scope: 'team', member: { login: 'bob' }, team: { slug: 'core' } });
    expect(receiver.last('team')?.body).toMatchObject({ action: 'added_to_repository', team: { slug: 'core' }, repository: { full_name: 'acme/site' }, organization: { login: 'acme' } });
    expect(receiver.last('organization')?.body).toMatchObject({ action: 'member_added', membership: { user: { login: 'bob' } } });

    const bob = await signIn('bob');
    const verifierless = await bob.exchange('');
    expect(verifierless).toMatchObject({ error: 'bad_verification_code' });

    await admin('/orgs/acme/members', { login: 'bob', remove: true });
    expect(receiver.last('organization')?.body).toMatchObject({ action: 'member_removed', membership: { user: { login: 'bob' } }, organization: { login: 'acme' } });
    expect(standIn.users.permission('bob', { owner: 'acme', name: 'site' })).toBeNull();
  });

  it('revocation ends every token of the person and sends github_app_authorization revoked', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const token = await (await signIn('alice', verifier)).exchange(verifier);
    const res = await admin('/users/alice/revoke', {});
    expect(res.json).toMatchObject({ ended: expect.any(Number) });
    expect(receiver.last('github_app_authorization')?.body).toMatchObject({ action: 'revoked', sender: { login: 'alice' } });
    expect((await api('/user', token.access_token ?? '')).status).toBe(401);
  });

  it('refuses a foreign client secret and a redirect URI other than the one authorized', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const flow = await signIn('alice', verifier);
    const answer = (body: Record<string, string>) =>
      fetch(`${standIn.url}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams(body) }).then(
        async (r) => (await r.json()) as Record<string, string>,
      );
    expect(await answer({ client_id: CLIENT.id, client_secret: 'nope', code: flow.code, code_verifier: verifier })).toMatchObject({ error: 'incorrect_client_credentials' });
    const again = await signIn('alice', verifier);
    expect(await answer({ client_id: CLIENT.id, client_secret: CLIENT.secret, code: again.code, code_verifier: verifier, redirect_uri: 'http://evil.example/cb' })).toMatchObject({
      error: 'redirect_uri_mismatch',
    });
  });
});
