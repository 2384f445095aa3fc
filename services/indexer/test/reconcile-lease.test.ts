// One reconciler pass at a time across processes: two processes' lease connections on one
// SQLite file (the embedded adapter; Elasticsearch's is tested in test/integration), a clock
// and timers the test moves by hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteLeases } from '@gitdex/sqlite';
import { budgetedIntervalSeconds, leasedPass, ReconcilerLease, ReconcileSchedule, type ReconcileReport } from '../src';
import { manualTime } from './support/manual-time';

const TTL_MS = 60_000;

function report(requests: Partial<ReconcileReport['requests']> = {}): ReconcileReport {
  return { checked: 1, drifted: [], metadata: [], failed: [], requests: { lists: 1, listPages: 3, repositories: 0, heads: 300, notModified: 0, ...requests }, membership: { added: [], removed: [] } };
}

describe('reconciler lease', () => {
  let dir: string;
  let file: string;
  const open: SqliteLeases[] = [];
  const connection = () => {
    const leases = new SqliteLeases({ file });
    open.push(leases);
    return leases;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-lease-'));
    file = join(dir, 'index.sqlite');
  });
  afterEach(() => {
    for (const leases of open.splice(0)) leases.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one of two processes run a pass; the other checks nothing and names the holder', async () => {
    const time = manualTime();
    const a = new ReconcilerLease({ leases: connection(), holder: 'pod-a', ttlMs: TTL_MS, now: time.now, timers: time.timers });
    const b = new ReconcilerLease({ leases: connection(), holder: 'pod-b', ttlMs: TTL_MS, now: time.now, timers: time.timers });
    const ran: string[] = [];
    const pass = (who: string) => () => Promise.resolve((ran.push(who), report()));
    const first = await leasedPass(a, pass('pod-a'));
    const second = await leasedPass(b, pass('pod-b'));
    expect(ran).toEqual(['pod-a']);
    expect(first.heldBy).toBeUndefined();
    expect(second).toMatchObject({ checked: 0, heldBy: expect.stringMatching(/^pod-a until 2026-01-01T00:01:00/) });
    // The holder keeps it across passes (its ETags stay useful); it gives it up when it stops.
    expect((await leasedPass(a, pass('pod-a'))).heldBy).toBeUndefined();
    await a.stop();
    expect((await leasedPass(b, pass('pod-b'))).heldBy).toBeUndefined();
    expect(ran).toEqual(['pod-a', 'pod-a', 'pod-b']);
  });

  it('after the holder crashes, another process takes over once the lease expires, and the stalled holder stops at its next ref', async () => {
    const time = manualTime();
    const a = new ReconcilerLease({ leases: connection(), holder: 'pod-a', ttlMs: TTL_MS, now: time.now, timers: time.timers });
    const b = new ReconcilerLease({ leases: connection(), holder: 'pod-b', ttlMs: TTL_MS, now: time.now, timers: time.timers });
    b.start();
    expect(await a.tryHold()).toBe(true);
    // pod-a crashed (or stalled): it never renews. pod-b asks every 20 s and is refused until the lease expires.
    await time.advanceSettled(40);
    expect(b.holds()).toBe(false);
    expect(a.holds()).toBe(true);
    await time.advanceSettled(21);
    expect(b.holds()).toBe(true);
    expect(a.holds()).toBe(false);
    // A renewal by the stalled holder is refused: pod-b has it now.
    expect(await a.tryHold()).toBe(false);
    await b.stop();
  });

  it('runs one pass per interval across two processes whose schedules both tick', async () => {
    const time = manualTime();
    let running = 0;
    let overlapped = false;
    const passes: string[] = [];
    const schedules = ['pod-a', 'pod-b'].map((holder) => {
      const lease = new ReconcilerLease({ leases: connection(), holder, ttlMs: TTL_MS, now: time.now, timers: time.timers });
      lease.start();
      const schedule = new ReconcileSchedule({
        pass: () =>
          leasedPass(lease, async () => {
            running += 1;
            overlapped ||= running > 1;
            passes.push(holder);
            await Promise.resolve();
            running -= 1;
            return report({ notModified: 300 });
          }),
        intervalSeconds: 300,
        onStop: () => lease.stop(),
        now: time.now,
        timers: time.timers,
      });
      schedule.start();
      return schedule;
    });
    await time.advanceSettled(0);
    await time.advanceSettled(3000);
    expect(overlapped).toBe(false);
    // 11 intervals' worth of ticks in each process, one pass each time: not 22.
    expect(passes).toHaveLength(11);
    expect(new Set(passes)).toEqual(new Set(['pod-a']));
    for (const schedule of schedules) await schedule.stop();
  });

  it('waits after a pass so that passes like it spend at most the budget share', () => {
    const budget = { share: 0.1, limitPerHour: 5000, minimumSeconds: 300 };
    // 303 counted requests at 500 an hour: 2,182 s.
    expect(budgetedIntervalSeconds(report(), budget)).toBe(2182);
    expect(budgetedIntervalSeconds(report({ notModified: 300 }), budget)).toBe(300);
    expect(budgetedIntervalSeconds(null, budget)).toBe(300);
    expect(budgetedIntervalSeconds(report(), { ...budget, share: 0.5 })).toBe(437);
  });
});
