// The permission mirror end to end, with its state in each engine: the GitHub stand-in changes
// who can read what and delivers GitHub's webhooks, signed, to gitdex's webhook router, which
// hands them to the mirror; the periodic refresh runs on an injected clock.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import express from 'express';
import type { RepositoryDocument } from '@gitdex/contracts';
import { ElasticsearchPermissions } from '@gitdex/elasticsearch';
import { GitHubUserAccessClient } from '@gitdex/github';
import type { PermissionStore } from '@gitdex/ports';
import { PermissionMirror, personAccess } from '@gitdex/reader';
import { SqliteEventLog, SqlitePermissions } from '@gitdex/sqlite';
import { createWebhookRouter } from '@gitdex/webhook';
import { createLogger } from '@gitdex/observability';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { permissionStoreCases } from '../conformance/permission-store.cases';
import { engineEndpoints, uniqueName } from '../harness/engines';

const SECRET = 'mirror-secret';
const REFRESH_SECONDS = 900;

interface Engine {
  name: string;
  open(): PermissionStore;
  close(): Promise<void>;
}

function sqliteEngine(): Engine {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-people-'));
  const opened: SqlitePermissions[] = [];
  return {
    name: 'SQLite',
    open: () => {
      const store = new SqlitePermissions({ file: join(dir, 'index.sqlite') });
      opened.push(store);
      return store;
    },
    close: () => {
      for (const store of opened) store.close();
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

function elasticsearchEngine(): Engine {
  const client = new Client({ node: engineEndpoints().elasticsearchUrl });
  const prefix = uniqueName('people').replace(/-/g, '');
  return {
    name: 'Elasticsearch',
    open: () => new ElasticsearchPermissions(client, { indexPrefix: prefix }),
    close: async () => {
      await client.indices.delete({ index: `${prefix}-people` }, { ignore: [404] });
      await client.close();
    },
  };
}

const repoDoc = (repositoryId: number, isPrivate: boolean): RepositoryDocument => ({
  repositoryId,
  fullName: 'acme/x',
  fullNameLower: 'acme/x',
  defaultBranch: 'main',
  private: isPrivate,
  archived: false,
  htmlUrl: 'https://github.com/acme/x',
  installationId: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  backfillRequestedAt: null,
});

describe.each([
  ['SQLite', sqliteEngine],
  ['Elasticsearch', elasticsearchEngine],
] as const)('permission mirror on %s', (_name, makeEngine) => {
  let engine: Engine;
  let root: string;
  let standIn: GitHubStandIn;
  let server: Server;
  let eventLog: SqliteEventLog;
  let eventDir: string;
  let clock: Date;
  let mirror: PermissionMirror;
  /** Another replica: its own mirror over the same stored state. */
  let replica: PermissionMirror;
  const githubTokens = new Map<number, string>();
  const revoked: number[] = [];
  let sdk: number;
  let site: number;

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${standIn.url}/_admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { deliveries?: { event: string; status: number | null }[] };
    return json.deliveries ?? [];
  };

  /** Signs in through the stand-in's consent flow, as the sign-in side does, and resolves the person. */
  const signIn = async (login: string) => {
    const query = new URLSearchParams({ client_id: 'gitdex', redirect_uri: 'http://127.0.0.1:1/cb', state: 's', login });
    const approved = await fetch(`${standIn.url}/login/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
    const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const token = (await (
      await fetch(`${standIn.url}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams({ client_id: 'gitdex', client_secret: 'x', code }) })
    ).json()) as { access_token: string };
    const person = await mirror.resolveOnSignIn(token.access_token);
    githubTokens.set(person.userId, token.access_token);
    return person;
  };

  const canRead = async (mirrorOf: PermissionMirror, userId: number, repositoryId: number) => {
    const principal = await mirrorOf.principalFor(userId);
    return principal !== null && personAccess(repoDoc(repositoryId, true), principal);
  };

  beforeAll(async () => {
    engine = makeEngine();
    root = await makeTempRoot();
    await createRepo(root, 'acme', 'sdk', { 'README.md': '# sdk\n' });
    await createRepo(root, 'acme', 'site', { 'README.md': '# site\n' });
    clock = new Date('2026-01-01T00:00:00.000Z');
    const github = { baseUrl: '' };
    const makeMirror = () =>
      new PermissionMirror({
        store: engine.open(),
        github: new GitHubUserAccessClient({ baseUrl: github.baseUrl }),
        tokens: (userId) => Promise.resolve(githubTokens.get(userId) ?? null),
        refreshSeconds: REFRESH_SECONDS,
        now: () => clock,
      });
    eventDir = mkdtempSync(join(tmpdir(), 'gitdex-events-'));
    eventLog = new SqliteEventLog({ file: join(eventDir, 'events.sqlite'), log: createLogger({ level: 'silent' }) });
    const app = express();
    app.use(createWebhookRouter({ secrets: [SECRET], publisher: eventLog, permissions: (event) => mirror.onWebhook(event) }));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`;
    standIn = await createGitHubStandIn({ root, webhookUrl: hook, secret: SECRET, organizations: ['acme'], installationId: 3 });
    github.baseUrl = standIn.url;
    await standIn.setVisibility('acme', 'sdk', true, { deliver: false });
    await standIn.setVisibility('acme', 'site', true, { deliver: false });
    sdk = await standIn.repoId('acme', 'sdk');
    site = await standIn.repoId('acme', 'site');
    mirror = makeMirror();
    replica = makeMirror();
    mirror.onRevoked((userId) => void revoked.push(userId));
  });

  afterAll(async () => {
    await standIn?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await eventLog?.close();
    rmSync(eventDir, { recursive: true, force: true });
    await engine?.close();
    await removeTempRoot(root);
  });

  describe('store conformance', () => permissionStoreCases(() => engine.open()));

  it('resolves at sign-in: alice reads private acme/sdk, bob nothing private; public repositories for both', async () => {
    await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'read' } });
    await admin('/users', { login: 'bob', repositories: {} });
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    expect([...alice.readable]).toEqual([sdk]);
    expect(await canRead(replica, alice.userId, sdk)).toBe(true);
    expect(await canRead(replica, bob.userId, sdk)).toBe(false);
    expect(personAccess(repoDoc(sdk, false), await replica.principalFor(bob.userId))).toBe(true);
  });

  it('removing alice from acme/sdk hides it on every replica once the member webhook is answered', async () => {
    const alice = standIn.users.user('alice')!.id;
    const deliveries = await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'none' } });
    expect(deliveries).toEqual([expect.objectContaining({ event: 'member', status: 202 })]);
    expect(await canRead(replica, alice, sdk)).toBe(false);
    // Added back: the grant is as quick.
    await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'read' } });
    expect(await canRead(replica, alice, sdk)).toBe(true);
  });

  it('a lost webhook is caught by the periodic refresh once the period has passed, not before', async () => {
    const alice = standIn.users.user('alice')!.id;
    expect(await admin('/users', { login: 'alice', repositories: { 'acme/sdk': 'none' }, deliver: false })).toEqual([]);
    expect(await replica.refreshDue()).toBe(0);
    expect(await canRead(replica, alice, sdk)).toBe(true);
    clock = new Date(clock.getTime() + REFRESH_SECONDS * 1000 + 1);
    expect(await replica.refreshDue()).toBeGreaterThanOrEqual(1);
    expect(await canRead(mirror, alice, sdk)).toBe(false);
  });

  it('team and organisation changes: gained through a team, lost when the team leaves the repository, when alice leaves the team or the organisation', async () => {
    const alice = standIn.users.user('alice')!.id;
    expect(await admin('/teams', { org: 'acme', slug: 'web', members: ['alice'], repositories: { 'acme/site': 'read' } })).toEqual(
      expect.arrayContaining([expect.objectContaining({ event: 'membership', status: 202 }), expect.objectContaining({ event: 'team', status: 202 })]),
    );
    expect(await canRead(replica, alice, site)).toBe(true);
    expect(await admin('/teams', { org: 'acme', slug: 'web', repositories: { 'acme/site': 'none' } })).toEqual([expect.objectContaining({ event: 'team', status: 202 })]);
    expect(await canRead(replica, alice, site)).toBe(false);

    await admin('/teams', { org: 'acme', slug: 'web', repositories: { 'acme/site': 'read' } });
    expect(await canRead(replica, alice, site)).toBe(true);
    expect(await admin('/teams', { org: 'acme', slug: 'web', members: [] })).toEqual([expect.objectContaining({ event: 'membership', status: 202 })]);
    expect(await canRead(replica, alice, site)).toBe(false);

    await admin('/teams', { org: 'acme', slug: 'web', members: ['alice'] });
    expect(await canRead(replica, alice, site)).toBe(true);
    expect(await admin('/orgs/acme/members', { login: 'alice', remove: true })).toEqual([expect.objectContaining({ event: 'organization', status: 202 })]);
    expect(await canRead(replica, alice, site)).toBe(false);
  });

  it('a revoked authorization forgets the person and ends their tokens through the listener', async () => {
    const alice = standIn.users.user('alice')!.id;
    const deliveries = await admin('/users/alice/revoke', {});
    expect(deliveries).toEqual([expect.objectContaining({ event: 'github_app_authorization', status: 202 })]);
    expect(revoked).toContain(alice);
    expect(await replica.principalFor(alice)).toBeNull();

    // A refresh with a token GitHub no longer accepts ends the authorization too (a lost revocation webhook).
    const bob = standIn.users.user('bob')!.id;
    standIn.users.revokeAll('bob');
    await mirror.refresh(bob);
    expect(revoked).toContain(bob);
    expect(await replica.principalFor(bob)).toBeNull();
  });
});
