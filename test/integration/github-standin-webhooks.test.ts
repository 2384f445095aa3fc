// Push and repository webhooks from the GitHub stand-in, received by a small express app that
// verifies the HMAC signature of the raw body like a real receiver would.
import { createHmac } from 'node:crypto';
import definitions from '@octokit/webhooks-examples';
import type { PushEvent, RepositoryEvent } from '@octokit/webhooks-types';
import { commitFiles, createBranch, createRepo, deleteBranch, forcePush, makeTempRoot, removeTempRoot, resetBranch, type FixtureRepo } from '../github-standin/fixture-repos';
import { ZERO_SHA } from '../github-standin/git';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { startWebhookReceiver, type WebhookReceiver } from '../github-standin/webhook-receiver';

const SECRET = 'webhook-secret';
const OWNER = 'octo';

async function adminPost(standIn: GitHubStandIn, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${standIn.url}/_admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('GitHub stand-in webhooks', () => {
  let root: string;
  let standIn: GitHubStandIn;
  let receiver: WebhookReceiver;
  let repo: FixtureRepo;

  const lastPush = (): PushEvent => receiver.last('push')?.body as PushEvent;

  beforeAll(async () => {
    root = await makeTempRoot();
    receiver = await startWebhookReceiver(SECRET);
    repo = await createRepo(root, OWNER, 'hooks', { 'README.md': '# hooks\n', 'src/a.ts': 'a\n' });
    standIn = await createGitHubStandIn({ root, webhookUrl: receiver.url, secret: SECRET, hookId: 4242 });
  });

  afterAll(async () => {
    await standIn?.close();
    await receiver?.close();
    await removeTempRoot(root);
  });

  it('delivers a signed push for a created branch', async () => {
    const { status, json } = await adminPost(standIn, `/repos/${OWNER}/hooks/push`, { ref: 'refs/heads/main' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 202, body: 'accepted', created: true, deleted: false, forced: false, before: ZERO_SHA, after: repo.sha });
    const delivery = receiver.received[receiver.received.length - 1];
    expect(delivery?.signatureValid).toBe(true);
    expect(delivery?.headers).toMatchObject({
      'x-github-event': 'push',
      'x-github-delivery': json.delivery_id,
      'x-github-hook-id': '4242',
      'content-type': 'application/json',
      'x-hub-signature': `sha1=${createHmac('sha1', SECRET)
        .update(delivery?.raw ?? '')
        .digest('hex')}`,
    });
    expect(String(delivery?.headers['user-agent'])).toMatch(/^GitHub-Hookshot\//);
    const payload = lastPush();
    expect(payload).toMatchObject({ ref: 'refs/heads/main', before: ZERO_SHA, after: repo.sha, created: true, deleted: false, forced: false });
    expect(payload.head_commit?.id).toBe(repo.sha);
    expect(payload.commits.map((c) => c.added)).toEqual([['README.md', 'src/a.ts']]);
    expect(payload.repository).toMatchObject({ id: await standIn.repoId(OWNER, 'hooks'), full_name: `${OWNER}/hooks`, default_branch: 'main' });
  });

  it('delivers updates with before = the last delivered sha', async () => {
    const second = await commitFiles(repo.dir, { 'src/b.ts': 'b\n' }, 'Add b');
    const third = await commitFiles(repo.dir, { 'src/a.ts': null, 'README.md': '# hooks!\n' }, 'Drop a');
    const result = await standIn.push(OWNER, 'hooks', { ref: 'main' });
    expect(result.delivery.status).toBe(202);
    const payload = lastPush();
    expect(payload).toMatchObject({ before: repo.sha, after: third, created: false, deleted: false, forced: false });
    expect(payload.commits.map((c) => [c.id, c.added, c.removed, c.modified])).toEqual([
      [second, ['src/b.ts'], [], []],
      [third, [], ['src/a.ts'], ['README.md']],
    ]);
    const again = await adminPost(standIn, `/repos/${OWNER}/hooks/push`, { ref: 'main' });
    expect(again.status).toBe(422);
  });

  it('marks force pushes', async () => {
    const before = lastPush().after;
    const rewritten = await forcePush(repo.dir, 'main', { 'NEW.md': 'new history\n' });
    await standIn.push(OWNER, 'hooks', { ref: 'refs/heads/main' });
    expect(lastPush()).toMatchObject({ before, after: rewritten, forced: true, created: false, deleted: false });
    expect(lastPush().commits.map((c) => c.id)).toEqual([rewritten]);

    // Rewinding a branch is a force push too.
    const onTop = await commitFiles(repo.dir, { 'more.md': 'more\n' }, 'More');
    await standIn.push(OWNER, 'hooks');
    expect(lastPush()).toMatchObject({ before: rewritten, after: onTop, forced: false });
    await resetBranch(repo.dir, 'main', rewritten);
    await standIn.push(OWNER, 'hooks');
    expect(lastPush()).toMatchObject({ before: onTop, after: rewritten, forced: true, commits: [] });
  });

  it('delivers created and deleted branches', async () => {
    const sha = await createBranch(repo.dir, 'topic');
    await standIn.push(OWNER, 'hooks', { ref: 'topic' });
    expect(lastPush()).toMatchObject({ ref: 'refs/heads/topic', created: true, before: ZERO_SHA, after: sha, base_ref: 'refs/heads/main', commits: [] });
    await deleteBranch(repo.dir, 'topic');
    await standIn.push(OWNER, 'hooks', { ref: 'topic' });
    expect(lastPush()).toMatchObject({ ref: 'refs/heads/topic', deleted: true, created: false, forced: false, before: sha, after: ZERO_SHA, head_commit: null, commits: [] });
  });

  it('delivers every changed ref at once', async () => {
    await createBranch(repo.dir, 'one');
    await commitFiles(repo.dir, { 'two.txt': '2\n' }, 'Two', { branch: 'one' });
    await createBranch(repo.dir, 'three');
    const { status, json } = await adminPost(standIn, `/repos/${OWNER}/hooks/push`, { all: true });
    expect(status).toBe(200);
    expect((json.deliveries as Array<{ ref: string; created: boolean }>).map((d) => [d.ref, d.created])).toEqual([
      ['refs/heads/one', true],
      ['refs/heads/three', true],
    ]);
  });

  it('answers 502 when the receiver is unreachable and can redeliver with the same guid', async () => {
    await commitFiles(repo.dir, { 'late.txt': 'late\n' }, 'Late');
    await adminPost(standIn, '/config', { webhookUrl: 'http://127.0.0.1:9/unreachable' });
    const failed = await adminPost(standIn, `/repos/${OWNER}/hooks/push`, { ref: 'main' });
    expect(failed.status).toBe(502);
    expect(String(failed.json.message)).toMatch(/Webhook delivery failed/);
    standIn.configure({ webhookUrl: receiver.url });
    const redelivered = await adminPost(standIn, `/deliveries/${String(failed.json.delivery_id)}/redeliver`, {});
    expect(redelivered).toMatchObject({ status: 200, json: { delivery_id: failed.json.delivery_id, status: 202 } });
    const last = receiver.received[receiver.received.length - 1];
    expect(last?.headers['x-github-delivery']).toBe(failed.json.delivery_id);
    expect(last?.signatureValid).toBe(true);
    const log = (await (await fetch(`${standIn.url}/_admin/deliveries`)).json()) as Array<{ id: string; status: number | null; redelivery: boolean }>;
    expect(log.filter((d) => d.id === failed.json.delivery_id).map((d) => [d.status, d.redelivery])).toEqual([
      [null, false],
      [202, true],
    ]);
  });

  it('delivers arbitrary signed events', async () => {
    const { status, json } = await adminPost(standIn, '/deliver', { event: 'ping', payload: { zen: 'Keep it logically awesome.', hook_id: 4242 } });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 202, event: 'ping' });
    const last = receiver.received[receiver.received.length - 1];
    expect(last?.headers['x-github-event']).toBe('ping');
    expect(last?.body).toEqual({ zen: 'Keep it logically awesome.', hook_id: 4242 });
  });

  it('sends repository events for rename, transfer, visibility and delete', async () => {
    const id = await standIn.repoId(OWNER, 'hooks');
    const events = (): RepositoryEvent[] => receiver.received.filter((r) => r.event === 'repository').map((r) => r.body as RepositoryEvent);

    const renamed = await adminPost(standIn, `/repos/${OWNER}/hooks/rename`, { new_name: 'hooks2' });
    expect(renamed.status).toBe(200);
    const renamedEvent = events().pop();
    expect(renamedEvent).toMatchObject({ action: 'renamed', changes: { repository: { name: { from: 'hooks' } } }, repository: { id, name: 'hooks2', full_name: `${OWNER}/hooks2` } });
    const example = definitions.find((d) => d.name === 'repository')?.examples.find((e) => (e as RepositoryEvent).action === 'renamed') as RepositoryEvent;
    const optional = ['installation', 'organization'];
    const keys = (o: object): string[] =>
      Object.keys(o)
        .filter((k) => !optional.includes(k))
        .sort();
    expect(keys(renamedEvent ?? {})).toEqual(keys(example));
    expect(keys(renamedEvent?.repository ?? {})).toEqual(keys(example.repository));

    await standIn.rename(OWNER, 'hooks2', { newOwner: 'new-owner' });
    expect(events().pop()).toMatchObject({ action: 'transferred', changes: { owner: { from: { user: { login: OWNER } } } }, repository: { id, full_name: 'new-owner/hooks2' } });

    await standIn.setVisibility('new-owner', 'hooks2', true);
    expect(events().pop()).toMatchObject({ action: 'privatized', repository: { id, private: true, visibility: 'private' } });

    // Pushes keep working after a rename: the last delivered sha is remembered by id.
    const next = await commitFiles(repo.dir.replace(`/${OWNER}/hooks`, '/new-owner/hooks2'), { 'after-rename.txt': 'x\n' }, 'After rename');
    await standIn.push('new-owner', 'hooks2');
    expect(lastPush()).toMatchObject({ created: false, after: next, repository: { id, full_name: 'new-owner/hooks2' } });

    const removed = await fetch(`${standIn.url}/_admin/repos/new-owner/hooks2`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(events().pop()).toMatchObject({ action: 'deleted', repository: { id, full_name: 'new-owner/hooks2' } });

    const quiet = await createRepo(root, OWNER, 'quiet', { 'q.txt': 'q\n' });
    const count = receiver.received.length;
    await standIn.remove(OWNER, quiet.name, { deliver: false });
    expect(receiver.received.length).toBe(count);
  });

  it('refuses to push when no webhook URL is configured', async () => {
    const bare = await createGitHubStandIn({ root });
    try {
      await createRepo(root, OWNER, 'nourl', { 'x.txt': 'x\n' });
      const res = await fetch(`${bare.url}/_admin/repos/${OWNER}/nourl/push`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(422);
    } finally {
      await bare.close();
    }
  });
});
