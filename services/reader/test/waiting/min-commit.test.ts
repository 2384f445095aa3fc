import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListFilesOutput, ReadFileOutput, SearchCodeOutput } from '@gitdex/contracts';
import { commitSha, fileDocument, pushCommit, readyState } from '../support/documents';
import { manualClock } from '../support/manual-clock';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { createWorld, type World } from '../support/world';
import { servesCommit } from '../../src/waiting/serves-commit';

/**
 * min_commit and wait_ms through a real MCP client on the embedded SQLite index: a call waits
 * for the flip of its ref, shares one watcher with every other waiter of the repository, and
 * leaves nothing behind when it ends, runs out or is cancelled. The watcher's polls run on a
 * hand-moved timer, so nothing here waits on the wall clock except a wait_ms meant to run out.
 */
describe('read your own push: min_commit', () => {
  let world: World;
  let client: Client;
  let close: () => Promise<void>;
  const clock = manualClock();
  const read = (args: Record<string, unknown>) => call(client, 'read_file', { repository: 'octo/api', path: 'README.md', ...args });
  const push = (label: string, readme: string) => pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label, put: { 'README.md': readme } });

  beforeEach(async () => {
    world = await createWorld('sqlite', { waitRepeat: clock.repeat, waitPollMs: 100 });
    ({ client, close } = await connectInMemory(world.deps));
  });
  afterEach(async () => close());

  /** Moves the watcher's timer until `settled` resolves (each poll is one step). */
  async function pollUntil<T>(pending: Promise<T>): Promise<T> {
    let done = false;
    void pending.finally(() => (done = true));
    for (let step = 0; step < 50 && !done; step += 1) await clock.advance(100);
    return pending;
  }

  test('a read with min_commit answers once the ref serves it, with the pushed content; every waiter shares one watcher', async () => {
    const wanted = commitSha('octo/api@2');
    const first = read({ min_commit: wanted, wait_ms: 10_000 });
    const second = call(client, 'list_files', { repository: 'octo/api', min_commit: wanted.slice(0, 10), wait_ms: 10_000 });
    const third = call(client, 'search_code', { repository: 'octo/api', query: 'pushed', min_commit: wanted, wait_ms: 10_000 });
    const all = Promise.all([first, second, third]);
    // Settled here too: a failed expectation below must not leave the calls' rejections unheard.
    all.catch(() => undefined);
    for (let step = 0; step < 20 && world.deps.watchers.counts().listeners < 3; step += 1) await clock.advance(100);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 1, listeners: 3 });
    await push('octo/api@2', '# API\n\npushed text\n');
    const [readAnswer, listAnswer, searchAnswer] = await pollUntil(all);
    const out = ok<ReadFileOutput>(readAnswer);
    expect(out.content).toContain('pushed text');
    expect(out.freshness).toMatchObject({ commit: wanted, pending: false, served_at: '2025-01-03T00:00:00.000Z' });
    expect(out.freshness.stale).toBeUndefined();
    expect(ok<ListFilesOutput>(listAnswer).freshness.commit).toBe(wanted);
    const search = ok<SearchCodeOutput>(searchAnswer);
    expect(search.files.map((file) => file.path)).toEqual(['README.md']);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
    expect(clock.running()).toBe(false);
  });

  test('a pull request not indexed yet is waited on as refs/pull/N/head: its first index answers the wait, not stale', async () => {
    const head = commitSha('octo/api#7');
    const pending = read({ ref: 'pull/7', min_commit: head, wait_ms: 10_000 });
    pending.catch(() => undefined);
    for (let step = 0; step < 20 && world.deps.watchers.counts().listeners < 1; step += 1) await clock.advance(100);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 1, listeners: 1 });
    const ref = 'refs/pull/7/head';
    await world.index.writeFiles([{ type: 'put', document: fileDocument({ repositoryId: 1, ref, path: 'README.md', spec: '# API\n\nfrom the pull request\n', commit: head, generation: 1 }) }]);
    await world.index.putRefState(readyState(1, ref, head, 1, 1));
    const result = await pollUntil(pending);
    const out = ok<ReadFileOutput>(result);
    expect(out.content).toContain('from the pull request');
    expect(out.freshness.commit).toBe(head);
    expect(out.freshness.stale).toBeUndefined();
    expect(textOf(result)).not.toMatch(/not served yet/);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('a commit already served, or one the served commit contains, answers at once without a watcher', async () => {
    const older = commitSha('octo/api@1');
    await pushCommit(world.index, { repositoryId: 1, ref: 'refs/heads/main', label: 'octo/api@2', put: { 'README.md': 'two\n' } });
    const state = (await world.index.getRefState(1, 'refs/heads/main'))!;
    await world.index.putRefState({ ...state, recentCommits: [commitSha('octo/api@1b'), older] });
    for (const wanted of [commitSha('octo/api@2'), commitSha('octo/api@1b'), older.slice(0, 7)]) {
      const out = ok<ReadFileOutput>(await read({ min_commit: wanted, wait_ms: 10_000 }));
      expect(out.content).toBe('two');
      expect(out.freshness.stale).toBeUndefined();
    }
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('a wait that runs out answers what is served, stale, never an error; an unknown commit waits the same way', async () => {
    const result = await read({ min_commit: commitSha('never-pushed'), wait_ms: 50 });
    const out = ok<ReadFileOutput>(result);
    expect(out.content).toContain('# API');
    expect(out.freshness).toMatchObject({ commit: commitSha('octo/api@1'), stale: true, wanted_commit: commitSha('never-pushed') });
    expect(textOf(result)).toMatch(/is not served yet \(waited for it\)/);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('a cancelled call leaves no waiter behind', async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md', min_commit: commitSha('octo/api@5'), wait_ms: 10_000 } }, undefined, {
      signal: controller.signal,
    });
    for (let step = 0; step < 20 && world.deps.watchers.counts().listeners === 0; step += 1) await clock.advance(100);
    expect(world.deps.watchers.counts().listeners).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    for (let step = 0; step < 20 && world.deps.watchers.counts().listeners > 0; step += 1) await clock.advance(100);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('bad arguments are refused with what they take; a private repository reads as nonexistent, waited on or not', async () => {
    expect(failed(await read({ min_commit: 'main' })).text).toMatch(/min_commit: a commit sha, 7 to 40 hex digits/);
    expect(failed(await read({ min_commit: commitSha('x'), wait_ms: 20_000 })).text).toMatch(/wait_ms: a whole number of milliseconds from 0 to 10000 \(got 20000\)/);
    const hidden = failed(await call(client, 'read_file', { repository: 'octo/secret', path: 'src/index.ts', min_commit: commitSha('x'), wait_ms: 10_000 }));
    const absent = failed(await call(client, 'read_file', { repository: 'octo/nothing', path: 'src/index.ts', min_commit: commitSha('x'), wait_ms: 10_000 }));
    expect(hidden.code).toBe(absent.code);
    expect(hidden.text.replaceAll('secret', 'nothing')).toBe(absent.text);
    expect(world.deps.watchers.counts()).toEqual({ repositories: 0, listeners: 0 });
  });

  test('servesCommit follows the parents held commits record', () => {
    const state = {
      ...readyLike(),
      commitSha: 'c3',
      history: [
        { commitSha: 'c3', generation: 3, parentShas: ['c2'], committedAt: null, indexedAt: '2025-01-01T00:00:00.000Z' },
        { commitSha: 'c2', generation: 2, parentShas: ['c1'], committedAt: null, indexedAt: '2025-01-01T00:00:00.000Z' },
      ],
    };
    expect(servesCommit(state, 'c1')).toBe(true);
    expect(servesCommit(state, 'c9')).toBe(false);
    expect(servesCommit(undefined, 'c1')).toBe(false);
  });
});

function readyLike() {
  return {
    repositoryId: 1,
    ref: 'refs/heads/main',
    commitSha: null as string | null,
    treeSha: null,
    generation: 3,
    indexedAt: null,
    committedAt: null,
    fileCount: 0,
    status: 'ready' as const,
    lastError: null,
    attempts: 0,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: null,
  };
}
