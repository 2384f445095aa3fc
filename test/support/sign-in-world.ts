// One gitdex reader with sign-in with GitHub in front of the GitHub stand-in, in this process:
// a SQLite index seeded with a private repository (acme/sdk, alice may read it) and a public
// one, the permission mirror asking the stand-in with each person's token, and the sign-in
// store on SQLite. The clock is the test's, so tokens expire without waiting.
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { Registry } from 'prom-client';
import { SqliteIndexStore, SqliteSignInStore } from '@gitdex/sqlite';
import type { SignInStore } from '@gitdex/ports';
import { bearerTokens, createReaderApp, createSignIn, MemoryPermissionStore, PermissionMirror, personAccess, resolveDeps, type SignIn } from '@gitdex/reader';
import { createConsoleRouter } from '@gitdex/console';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { seedRepository } from '../../services/reader/test/support/documents';
import { GitHubUserAccessClient } from '@gitdex/github';

export const CANARY = 'CANARY-sign-in-sdk-4f7a';
export const OAUTH_APP = { clientId: 'Iv1.gitdex-sign-in', clientSecret: 'sign-in-app-secret-0123456789' };
export const MACHINE_TOKEN = 'ci-machine-token-0123456789abcdef';

export interface SignInWorld {
  url: string;
  standIn: GitHubStandIn;
  signIn: SignIn;
  mirror: PermissionMirror;
  store: SignInStore;
  ids: { sdk: number; open: number };
  /** Moves the clock of sign-in (tokens, codes) and of the mirror. */
  advance(ms: number): void;
  /** Another gitdex (its own public URL) on the same sign-in store: a token it issues is for another resource. */
  other: { url: string; signIn: SignIn };
  close(): Promise<void>;
}

async function listening(): Promise<{ server: Server; url: string }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startSignInWorld(): Promise<SignInWorld> {
  const root = await makeTempRoot('gitdex-sign-in-');
  const standIn = await createGitHubStandIn({ root });
  await createRepo(root, 'acme', 'sdk', { 'README.md': '# SDK\n', 'src/index.ts': `export const secret = '${CANARY}';\n` });
  await createRepo(root, 'acme', 'open', { 'README.md': '# Open\n' });
  await standIn.setVisibility('acme', 'sdk', true, { deliver: false });
  const ids = { sdk: await standIn.repoId('acme', 'sdk'), open: await standIn.repoId('acme', 'open') };
  await post(standIn.url, '/_admin/oauth', { client_id: OAUTH_APP.clientId, client_secret: OAUTH_APP.clientSecret });
  await post(standIn.url, '/_admin/users', { login: 'alice', repositories: { 'acme/sdk': 'read' }, deliver: false });
  await post(standIn.url, '/_admin/users', { login: 'bob', deliver: false });

  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  await seedRepository(index, { id: ids.sdk, fullName: 'acme/sdk', private: true, files: { 'README.md': '# SDK\n', 'src/index.ts': `export const secret = '${CANARY}';\n` } });
  await seedRepository(index, { id: ids.open, fullName: 'acme/open', files: { 'README.md': '# Open\n' } });

  let now = Date.parse('2026-06-01T00:00:00Z');
  const clock = () => new Date(now);
  const store = new SqliteSignInStore({ file: join(root, 'sign-in.sqlite') });
  const mirror = new PermissionMirror({
    store: new MemoryPermissionStore(),
    github: new GitHubUserAccessClient({ baseUrl: standIn.url }),
    tokens: (userId) => signIn.provider.gitHubTokenOf(userId),
    now: clock,
  });
  const encryptionKey = new Uint8Array(32).fill(7);

  const mount = (url: string): SignIn => {
    const made = createSignIn({ store, people: mirror, github: { webUrl: standIn.url, ...OAUTH_APP }, encryptionKey, publicUrl: url, now: clock });
    return made;
  };
  const serve = (server: Server, made: SignIn) => {
    const deps = resolveDeps({ index, publisher: { publish: () => Promise.resolve(), ping: () => Promise.resolve(true), close: () => Promise.resolve() }, access: personAccess });
    const app = express();
    app.use(made.router);
    app.use(createConsoleRouter());
    app.use(
      createReaderApp(deps, {
        registry: new Registry(),
        authenticate: made.authenticate(bearerTokens([{ token: MACHINE_TOKEN, principal: { id: 'ci' } }])),
        resourceMetadataUrl: made.resourceMetadataUrl,
      }),
    );
    server.on('request', app);
  };
  const main = await listening();
  const signIn = mount(main.url);
  serve(main.server, signIn);
  const second = await listening();
  const otherSignIn = mount(second.url);
  serve(second.server, otherSignIn);

  return {
    url: main.url,
    standIn,
    signIn,
    mirror,
    store,
    ids,
    advance: (ms) => {
      now += ms;
    },
    other: { url: second.url, signIn: otherSignIn },
    async close() {
      for (const server of [main.server, second.server]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      store.close();
      await index.close();
      await standIn.close();
      await removeTempRoot(root);
    },
  };
}

async function post(base: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}
