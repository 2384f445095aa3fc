import type { GitdexEvent } from '@gitdex/contracts';
import type { EventEnvelope } from '@gitdex/ports';
import { InFlightScheduler, PartitionProgress, type InFlightLimits } from '../src';

const push = (repo: number, n: number): EventEnvelope => {
  const event: GitdexEvent = {
    kind: 'push',
    eventId: `r${repo}-${n}`,
    repository: { id: repo, fullName: `o/r${repo}` },
    receivedAt: new Date(0).toISOString(),
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: n.toString(16).padStart(40, '0'),
    created: false,
    deleted: false,
    forced: false,
  };
  return { event, headers: {}, position: `t/0/${n}` };
};

/** A handler whose calls finish only when the test says so: the test is the clock. */
function manualHandler() {
  const calls: { ids: string[]; finish: () => void; fail: (error: Error) => void }[] = [];
  const handle = (envelopes: EventEnvelope[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ ids: envelopes.map((e) => e.event.eventId), finish: resolve, fail: reject });
    });
  const call = (id: string) => {
    const found = calls.find((c) => c.ids.includes(id));
    if (!found) throw new Error(`no handler call holds ${id}; calls: ${JSON.stringify(calls.map((c) => c.ids))}`);
    return found;
  };
  return { calls, handle, call };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(limits: InFlightLimits) {
  const handler = manualHandler();
  const commits: bigint[] = [];
  const progress = new PartitionProgress(
    async (offset) => void commits.push(offset),
    (error) => {
      throw error;
    },
  );
  let retryWake: (() => void) | undefined;
  const scheduler = new InFlightScheduler({
    limits,
    handle: handler.handle,
    retryDelayMs: 1000,
    onRetry: () => undefined,
    // The retry delay ends when the test says so.
    sleep: (_ms, closed) => Promise.race([new Promise<void>((resolve) => (retryWake = resolve)), closed]),
  });
  let offset = 0n;
  const admit = (repo: number, n: number, bytes = 100) => {
    const at = offset;
    offset += 1n;
    progress.see(at);
    return scheduler.admit({ envelope: push(repo, n), key: String(repo), bytes, progress, offset: at });
  };
  return { handler, commits, progress, scheduler, admit, retry: () => retryWake?.() };
}

describe('InFlightScheduler', () => {
  it('handles repositories side by side, each in order, and commits only below the oldest unfinished event', async () => {
    const { handler, commits, scheduler, admit } = setup({ events: 100, bytes: 1 << 20, keys: 8 });
    // Offsets 0..3: r1-1, r2-1, r1-2, r3-1.
    await admit(1, 1);
    await admit(2, 1);
    await admit(1, 2);
    await admit(3, 1);
    await settle();
    // Three repositories at once; r1's second event waits for its first.
    expect(handler.calls.map((c) => c.ids)).toEqual([['r1-1'], ['r2-1'], ['r3-1']]);
    expect(scheduler.load).toMatchObject({ events: 4, keys: 3 });

    // r2 and r3 finish first: offset 0 (r1-1) is unfinished, so nothing may be committed.
    handler.call('r2-1').finish();
    handler.call('r3-1').finish();
    await settle();
    expect(commits).toEqual([]);

    // r1-1 finishes: r1-2 starts only now, and the commit stops below it (offset 2).
    handler.call('r1-1').finish();
    await settle();
    expect(handler.calls.map((c) => c.ids)).toEqual([['r1-1'], ['r2-1'], ['r3-1'], ['r1-2']]);
    expect(commits.at(-1)).toBe(2n);

    handler.call('r1-2').finish();
    await settle();
    expect(commits.at(-1)).toBe(4n);
    expect(scheduler.load).toEqual({ events: 0, bytes: 0, keys: 0 });
    await scheduler.close();
  });

  it('hands a repository the events that queued behind its running one as one ordered group', async () => {
    const { handler, scheduler, admit } = setup({ events: 100, bytes: 1 << 20, keys: 8 });
    await admit(1, 1);
    await admit(1, 2);
    await admit(1, 3);
    await settle();
    handler.call('r1-1').finish();
    await settle();
    expect(handler.calls.map((c) => c.ids)).toEqual([['r1-1'], ['r1-2', 'r1-3']]);
    handler.call('r1-2').finish();
    await scheduler.close();
  });

  it('retries a failed group holding its repository, and never commits past it meanwhile', async () => {
    const { handler, commits, scheduler, admit, retry } = setup({ events: 100, bytes: 1 << 20, keys: 8 });
    await admit(1, 1);
    await admit(2, 1);
    await settle();
    handler.call('r1-1').fail(new Error('GitHub answered 502'));
    handler.call('r2-1').finish();
    await admit(1, 2);
    await settle();
    // r1-2 does not overtake the failed r1-1, and offset 0 holds the commit at 0.
    expect(handler.calls.filter((c) => c.ids.includes('r1-2'))).toHaveLength(0);
    expect(commits.every((c) => c <= 0n)).toBe(true);
    retry();
    await settle();
    expect(handler.calls.at(-1)!.ids).toEqual(['r1-1']);
    handler.calls.at(-1)!.finish();
    await settle();
    expect(handler.calls.at(-1)!.ids).toEqual(['r1-2']);
    expect(commits.at(-1)).toBe(2n);
    handler.calls.at(-1)!.finish();
    await scheduler.close();
  });

  it('bounds the repositories handled at once, and pauses admission at the event and byte bounds', async () => {
    const { handler, scheduler, admit } = setup({ events: 3, bytes: 1000, keys: 2 });
    await admit(1, 1);
    await admit(2, 1);
    await admit(3, 1);
    await settle();
    expect(handler.calls).toHaveLength(2);
    expect(scheduler.load).toMatchObject({ events: 3, keys: 2 });

    // The fourth event waits for room: the fetch loop that called admit is paused.
    let admitted = false;
    const fourth = admit(4, 1).then(() => (admitted = true));
    await settle();
    expect(admitted).toBe(false);
    handler.call('r1-1').finish();
    await fourth;
    expect(admitted).toBe(true);
    expect(scheduler.load.events).toBeLessThanOrEqual(3);

    // Bytes: a 900-byte event does not fit beside the 300 held; it waits until they finish.
    let big = false;
    const heavy = admit(5, 1, 900).then(() => (big = true));
    await settle();
    expect(big).toBe(false);
    handler.call('r2-1').finish();
    await settle();
    handler.call('r3-1').finish();
    await settle();
    handler.call('r4-1').finish();
    await heavy;
    expect(scheduler.load.bytes).toBe(900);
    handler.call('r5-1').finish();
    await scheduler.close();
  });

  it('drops the queued events of a retired partition, never commits for it, and refuses events once closed', async () => {
    const { handler, commits, progress, scheduler, admit } = setup({ events: 100, bytes: 1 << 20, keys: 8 });
    await admit(1, 1);
    await admit(1, 2);
    await settle();
    progress.retire();
    handler.call('r1-1').finish();
    await settle();
    expect(handler.calls).toHaveLength(1);
    expect(commits).toEqual([]);
    expect(scheduler.load.events).toBe(0);
    await scheduler.close();
    expect(await admit(2, 1)).toBe(false);
  });
});
