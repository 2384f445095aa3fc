import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { ChangesOutput, ReadFileOutput } from '@gitdex/contracts';
import { createReaderApp } from '../../src/app';
import { commitSha, pushCommit } from '../support/documents';
import { manualClock } from '../support/manual-clock';
import { createWorld, type World } from '../support/world';

/**
 * The REST side of read your own push on the embedded index: min_commit on a REST mirror, the
 * changes feed as JSON, long poll and server-sent events, and nothing left behind by a client
 * that goes away.
 */
describe('read your own push over REST', () => {
  let world: World;
  let server: Server;
  let base: string;
  const clock = manualClock();

  beforeAll(async () => {
    world = await createWorld('sqlite', { waitRepeat: clock.repeat, waitPollMs: 100 });
    const app = createReaderApp(world.deps);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/repositories`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A push as the indexer records it: the flip, with the commit held, its push time and the paths it changed. */
  async function push(label: string, readme: string): Promise<string> {
    const before = (await world.index.getRefState(1, 'refs/heads/main'))!;
    const next = await pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label, put: { 'README.md': readme } });
    const indexedAt = new Date(Date.parse(before.indexedAt!) + 60_000).toISOString();
    const held = {
      commitSha: next.commitSha!,
      generation: next.generation,
      parentShas: [before.commitSha!],
      committedAt: indexedAt,
      indexedAt,
      receivedAt: new Date(Date.parse(indexedAt) - 250).toISOString(),
      changedPaths: ['README.md'],
      changedCount: 1,
    };
    const history = before.history ?? [{ commitSha: before.commitSha!, generation: before.generation, parentShas: [], committedAt: before.committedAt, indexedAt: before.indexedAt! }];
    await world.index.putRefState({ ...next, indexedAt, sourceReceivedAt: held.receivedAt, history: [held, ...history] });
    return next.commitSha!;
  }

  async function pollUntil<T>(pending: Promise<T>): Promise<T> {
    let done = false;
    void pending.finally(() => (done = true));
    for (let step = 0; step < 50 && !done; step += 1) await clock.advance(100);
    return pending;
  }

  const listeners = () => world.deps.watchers.counts().listeners;

  test('the feed: a cursor to start from, a long poll answered by the next push, with its times and paths', async () => {
    const start = (await (await fetch(`${base}/octo/api/changes`)).json()) as ChangesOutput;
    expect(start).toEqual({ repository: 'octo/api', changes: [], cursor: commitSha('octo/api@1') });
    const waiting = fetch(`${base}/octo/api/changes?since=${start.cursor}&wait_ms=10000`).then(async (res) => (await res.json()) as ChangesOutput);
    for (let step = 0; step < 200 && listeners() === 0; step += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const sha = await push('octo/api@2', 'two\n');
    const answer = await pollUntil(waiting);
    expect(answer.changes).toEqual([expect.objectContaining({ ref: 'refs/heads/main', sha, lag_ms: 250, paths: ['README.md'], paths_complete: true })]);
    expect(answer.cursor).toBe(sha);
    // Asked again from the first cursor, the same change comes at once.
    const again = (await (await fetch(`${base}/octo/api/changes?since=${start.cursor!.slice(0, 8)}`)).json()) as ChangesOutput;
    expect(again.changes.map((change) => change.sha)).toEqual([sha]);
    expect(listeners()).toBe(0);
  });

  test('server-sent events: one commit event per served commit; closing the stream stops its listener', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/octo/api/changes`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const sha = await push('octo/api@3', 'three\n');
    const event = (async () => {
      while (!text.includes('event: commit')) text += new TextDecoder().decode((await reader.read()).value);
      return text;
    })();
    expect(await pollUntil(event)).toContain(`"sha":"${sha}"`);
    expect(listeners()).toBe(1);
    controller.abort();
    for (let step = 0; step < 200 && listeners() > 0; step += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(listeners()).toBe(0);
  });

  test('a REST read with min_commit that runs out is the stale answer; a private repository has no feed, like a missing one', async () => {
    const res = await fetch(`${base}/octo/api/files/README.md?min_commit=${commitSha('later')}&wait_ms=20`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as ReadFileOutput).freshness).toMatchObject({ stale: true, wanted_commit: commitSha('later') });
    const hidden = await fetch(`${base}/octo/secret/changes`);
    const absent = await fetch(`${base}/octo/nothing/changes`);
    expect(hidden.status).toBe(404);
    expect(((await hidden.json()) as { error: { message: string } }).error.message.replaceAll('secret', 'nothing')).toBe(((await absent.json()) as { error: { message: string } }).error.message);
    const bad = await fetch(`${base}/octo/api/changes?since=main`);
    expect(bad.status).toBe(400);
    expect(listeners()).toBe(0);
  });
});
