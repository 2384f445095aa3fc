/**
 * How long a permission removal takes from GitHub's delivery to hidden on another replica, per
 * engine of the mirror's state: the stand-in delivers signed webhooks to the webhook router, which
 * hands them to the mirror; a second mirror over the same store reads after each delivery. Rows:
 * `ping` (the webhook's floor: verified, answered, no work), `member` removed (a store write) and
 * `membership` removed (the person resolved again from GitHub: GET /user/repos on the stand-in).
 * Run: ELASTICSEARCH_URL=http://127.0.0.1:19200 npx tsx --tsconfig bench/tsconfig.json bench/micro/permission-removal.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import express from 'express';
import { ElasticsearchPermissions } from '@gitdex/elasticsearch';
import { GitHubUserAccessClient } from '@gitdex/github';
import { createLogger } from '@gitdex/observability';
import type { PermissionStore } from '@gitdex/ports';
import { PermissionMirror } from '@gitdex/reader';
import { SqliteEventLog, SqlitePermissions } from '@gitdex/sqlite';
import { createWebhookRouter } from '@gitdex/webhook';
import { createRepo, makeTempRoot, removeTempRoot } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn } from '../../test/github-standin/server';
import { median, p99 } from '../measure/stats';

const ROUNDS = 40;
const SECRET = 'bench-secret';

async function measure(engine: string, open: () => PermissionStore): Promise<void> {
  const root = await makeTempRoot();
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-bench-people-'));
  await createRepo(root, 'acme', 'sdk', { 'README.md': '# sdk\n' });
  const eventLog = new SqliteEventLog({ file: join(dir, 'events.sqlite'), log: createLogger({ level: 'silent' }) });
  const tokens = new Map<number, string>();
  const github = { baseUrl: '' };
  const mirrorOver = (store: PermissionStore) =>
    new PermissionMirror({ store, github: new GitHubUserAccessClient({ baseUrl: github.baseUrl }), tokens: (id) => Promise.resolve(tokens.get(id) ?? null) });
  const hook: { mirror?: PermissionMirror } = {};
  const app = express();
  app.use(createWebhookRouter({ secrets: [SECRET], publisher: eventLog, permissions: (event) => hook.mirror!.onWebhook(event) }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const standIn = await createGitHubStandIn({ root, webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`, secret: SECRET, organizations: ['acme'] });
  github.baseUrl = standIn.url;
  await standIn.setVisibility('acme', 'sdk', true, { deliver: false });
  const sdk = await standIn.repoId('acme', 'sdk');
  const mirror = mirrorOver(open());
  hook.mirror = mirror;
  const replica = mirrorOver(open());
  const post = (path: string, body: unknown) => fetch(`${standIn.url}/_admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  await post('/users', { login: 'alice', repositories: { 'acme/sdk': 'read' } });
  await post('/teams', { org: 'acme', slug: 'web', members: [], repositories: { 'acme/sdk': 'read' } });
  const code = new URL(
    (await fetch(`${standIn.url}/login/oauth/authorize?client_id=b&redirect_uri=http://127.0.0.1:1/cb&login=alice`, { redirect: 'manual' })).headers.get('location') ?? '',
  ).searchParams.get('code');
  const token = (
    (await (
      await fetch(`${standIn.url}/login/oauth/access_token`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams({ client_id: 'b', code: code ?? '' }) })
    ).json()) as { access_token: string }
  ).access_token;
  const alice = await mirror.resolveOnSignIn(token);
  tokens.set(alice.userId, token);

  const hiddenAfter = async (change: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await change();
    const set = await replica.readable(alice.userId);
    const ms = performance.now() - t;
    if (set?.has(sdk)) throw new Error('still readable after the delivery was answered');
    return ms;
  };
  const rows: Record<string, number[]> = { ping: [], member: [], membership: [] };
  for (let round = 0; round < ROUNDS + 5; round += 1) {
    const keep = round >= 5; // the first rounds warm the connections and the engine
    const t = performance.now();
    await post('/deliver', { event: 'ping', payload: { zen: 'bench', hook_id: 1 } });
    if (keep) rows.ping!.push(performance.now() - t);
    await post('/users', { login: 'alice', repositories: { 'acme/sdk': 'read' } });
    const m = await hiddenAfter(() => post('/users', { login: 'alice', repositories: { 'acme/sdk': 'none' } }));
    if (keep) rows.member!.push(m);
    await post('/teams', { org: 'acme', slug: 'web', members: ['alice'] });
    const ms = await hiddenAfter(() => post('/teams', { org: 'acme', slug: 'web', members: [] }));
    if (keep) rows.membership!.push(ms);
  }
  const base = median(rows.ping!);
  for (const [name, values] of Object.entries(rows)) {
    console.log(`${engine}\t${name}\tp50 ${median(values).toFixed(2)} ms\tp99 ${p99(values).toFixed(2)} ms\t${(median(values) / base).toFixed(2)}× ping`);
  }
  await standIn.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await eventLog.close();
  rmSync(dir, { recursive: true, force: true });
  await removeTempRoot(root);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gitdex-bench-mirror-'));
  await measure('sqlite', () => new SqlitePermissions({ file: join(dir, 'index.sqlite') }));
  rmSync(dir, { recursive: true, force: true });
  const url = process.env.ELASTICSEARCH_URL;
  if (url) {
    const client = new Client({ node: url });
    const prefix = `benchpeople${Date.now()}`;
    await measure('elasticsearch', () => new ElasticsearchPermissions(client, { indexPrefix: prefix }));
    await client.indices.delete({ index: `${prefix}-people` }, { ignore: [404] });
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
