// The stand-in plays pull requests with GitHub's shapes: admin routes open, synchronize and
// close them (refs/pull/N/head moved, `pull_request` delivered, signed), GET /pulls lists them
// by state in pages, and bad requests answer clear errors that change nothing.
import { commitFiles, createBranch, createRepo, fixtureGit, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { startWebhookReceiver, type WebhookReceiver } from '../github-standin/webhook-receiver';
import { gitHead } from '../support/git-truth';

describe('stand-in pull requests', () => {
  let root: string;
  let dir: string;
  let standIn: GitHubStandIn;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    root = await makeTempRoot('standin-pulls-');
    dir = (await createRepo(root, 'acme', 'prs', { 'a.txt': 'a\n' })).dir;
    await createBranch(dir, 'topic');
    receiver = await startWebhookReceiver('s3cret');
    standIn = await createGitHubStandIn({ root, webhookUrl: receiver.url, secret: 's3cret' });
  });
  afterAll(async () => {
    await standIn?.close();
    await receiver?.close();
    if (root) await removeTempRoot(root);
  });

  const post = (path: string, body: unknown = {}) =>
    fetch(`${standIn.url}/_admin/repos/acme/prs/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = async (path: string) => {
    const response = await fetch(`${standIn.url}/repos/acme/prs/${path}`);
    return { status: response.status, link: response.headers.get('link'), body: (await response.json()) as Record<string, unknown> & Record<string, unknown>[] };
  };

  it('opens, synchronizes and closes with GitHub-shaped webhooks and REST answers', async () => {
    await fixtureGit(dir, ['checkout', '-q', 'topic']);
    await commitFiles(dir, { 'b.txt': 'b\n' }, 'topic');
    await fixtureGit(dir, ['checkout', '-q', 'main']);
    expect(await (await post('pulls', { head: 'topic', base: 'main', title: 'Add b' })).json()).toMatchObject({ number: 1, status: 202 });
    expect(gitHead(dir, 'refs/pull/1/head')).toBe(gitHead(dir, 'topic'));
    const opened = receiver.last('pull_request')!;
    expect(opened.signatureValid).toBe(true);
    expect(opened.body).toMatchObject({
      action: 'opened',
      number: 1,
      pull_request: {
        number: 1,
        title: 'Add b',
        state: 'open',
        draft: false,
        merged: false,
        user: { login: 'acme' },
        base: { ref: 'main', sha: gitHead(dir, 'main') },
        head: { ref: 'topic', sha: gitHead(dir, 'topic') },
        closed_at: null,
      },
      repository: { full_name: 'acme/prs' },
    });

    await fixtureGit(dir, ['checkout', '-q', 'topic']);
    await commitFiles(dir, { 'c.txt': 'c\n' }, 'more');
    await fixtureGit(dir, ['checkout', '-q', 'main']);
    expect((await post('pulls/1/synchronize')).status).toBe(200);
    expect(gitHead(dir, 'refs/pull/1/head')).toBe(gitHead(dir, 'topic'));
    expect(receiver.last('pull_request')!.body).toMatchObject({ action: 'synchronize', pull_request: { head: { sha: gitHead(dir, 'topic') } } });

    await post('pulls', { head: 'topic', base: 'main', title: 'Second' });
    expect(await (await post('pulls/1/close', { merged: true })).json()).toMatchObject({ number: 1, state: 'closed', merged: true });
    expect(receiver.last('pull_request')!.body).toMatchObject({ action: 'closed', pull_request: { state: 'closed', merged: true, closed_at: expect.any(String) } });

    expect((await get('pulls')).body.map((p) => p.number)).toEqual([2]);
    expect((await get('pulls?state=closed')).body.map((p) => p.number)).toEqual([1]);
    const page = await get('pulls?state=all&per_page=1');
    expect(page.body.map((p) => p.number)).toEqual([2]);
    expect(page.link).toContain('rel="next"');
    expect((await get('pulls/1')).body).toMatchObject({ number: 1, state: 'closed', merged: true, head: { sha: gitHead(dir, 'refs/pull/1/head') } });
  });

  it('answers clear errors and changes nothing on bad requests', async () => {
    const before = (await get('pulls?state=all')).body.length;
    const missing = await post('pulls', { head: 'no-such-branch', base: 'main', title: 'x' });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { message: string }).message).toContain('head branch "no-such-branch" does not exist');
    expect((await post('pulls', { head: 'topic' })).status).toBe(422);
    expect((await post('pulls/99/synchronize')).status).toBe(404);
    expect((await post('pulls/1/close')).status).toBe(422);
    expect((await get('pulls/99')).status).toBe(404);
    expect((await get('pulls?state=merged')).status).toBe(422);
    expect((await get('pulls?state=all')).body).toHaveLength(before);
  });
});
