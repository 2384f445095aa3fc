import { ReconcileSchedule, type PassResult, type ReconcileReport } from '../src';
import { manualTime } from './support/manual-time';

const INTERVAL = 300;

function report(overrides: Partial<ReconcileReport> = {}): ReconcileReport {
  return { checked: 1, drifted: [], metadata: [], failed: [], requests: { lists: 1, listPages: 1, repositories: 0, heads: 1, notModified: 0 }, membership: { added: [], removed: [] }, ...overrides };
}

describe('reconciler schedule', () => {
  it('runs the first pass at start, not one interval later, then one interval after each pass ends', async () => {
    const time = manualTime();
    let passes = 0;
    const schedule = new ReconcileSchedule({ pass: () => Promise.resolve(((passes += 1), report())), intervalSeconds: INTERVAL, now: time.now, timers: time.timers });
    schedule.start();
    expect(passes).toBe(1);
    await schedule.idle();
    expect(schedule.status()).toMatchObject({ lastSuccessAt: '2026-01-01T00:00:00.000Z', lastError: null, late: false, degraded: null, running: false });
    expect(time.pending()).toEqual([INTERVAL * 1000]);

    time.advance(INTERVAL);
    expect(passes).toBe(2);
    await schedule.idle();
    await schedule.stop();
    expect(time.pending()).toEqual([]);
  });

  it('never runs two passes at once: the next is armed when the slow one ends', async () => {
    const time = manualTime();
    let finish: (r: ReconcileReport) => void = () => undefined;
    let passes = 0;
    const schedule = new ReconcileSchedule({
      pass: () => new Promise((resolve) => ((passes += 1), (finish = resolve))),
      intervalSeconds: INTERVAL,
      now: time.now,
      timers: time.timers,
    });
    schedule.start();
    time.advance(INTERVAL * 3);
    expect(passes).toBe(1);
    expect(schedule.status().running).toBe(true);
    finish(report());
    await schedule.idle();
    expect(time.pending()).toEqual([INTERVAL * 1000]);
    await schedule.stop();
  });

  it('says when a pass failed, why, and clears it on the next success', async () => {
    const time = manualTime();
    const outcomes: (ReconcileReport | Error)[] = [
      new Error('GitHub repositories of the token: HTTP 401 Bad credentials'),
      report({ failed: [{ repository: 'acme/a', error: 'HTTP 502' }] }),
      report(),
    ];
    const seen: PassResult[] = [];
    const schedule = new ReconcileSchedule({
      pass: () => {
        const next = outcomes.shift()!;
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      },
      intervalSeconds: INTERVAL,
      now: time.now,
      timers: time.timers,
      onPass: (result) => seen.push(result),
    });
    schedule.start();
    await schedule.idle();
    expect(schedule.status()).toMatchObject({ lastSuccessAt: null, lastFailureAt: '2026-01-01T00:00:00.000Z', lastError: 'GitHub repositories of the token: HTTP 401 Bad credentials' });
    expect(schedule.status().degraded).toMatch(/^the last reconciler pass failed at 2026-01-01T00:00:00.000Z: GitHub repositories of the token: HTTP 401/);

    time.advance(INTERVAL);
    await schedule.idle();
    // A pass that could not read every repository is a failure too: some visibility may be stale.
    expect(schedule.status().lastError).toBe('1 read failed, first acme/a: HTTP 502');

    time.advance(INTERVAL);
    await schedule.idle();
    expect(schedule.status()).toMatchObject({ lastSuccessAt: '2026-01-01T00:10:00.000Z', lastError: null, degraded: null });
    expect(seen.map((r) => r.problem === null)).toEqual([false, false, true]);
    await schedule.stop();
  });

  it('says it is late once no pass succeeded for more than two intervals', async () => {
    const time = manualTime();
    let finish: (r: ReconcileReport) => void = () => undefined;
    const schedule = new ReconcileSchedule({ pass: () => new Promise((resolve) => (finish = resolve)), intervalSeconds: INTERVAL, now: time.now, timers: time.timers });
    schedule.start();
    time.advance(INTERVAL * 2);
    expect(schedule.status().late).toBe(false);
    time.advance(1);
    expect(schedule.status()).toMatchObject({ late: true, lastSuccessAt: null });
    expect(schedule.status().degraded).toMatch(/no successful reconciler pass since start \(2026-01-01T00:00:00.000Z\), more than two intervals of 300 s/);
    finish(report());
    await schedule.idle();
    expect(schedule.status()).toMatchObject({ late: false, degraded: null });
    await schedule.stop();
  });

  it('reports a rate-limited pass as failed with GitHub’s words', async () => {
    const time = manualTime();
    const schedule = new ReconcileSchedule({
      pass: () => Promise.resolve(report({ rateLimited: 'GitHub branch main of acme/a: HTTP 403 API rate limit exceeded' })),
      intervalSeconds: INTERVAL,
      now: time.now,
      timers: time.timers,
    });
    schedule.start();
    await schedule.idle();
    expect(schedule.status().lastError).toBe("GitHub's rate limit stopped the pass: GitHub branch main of acme/a: HTTP 403 API rate limit exceeded");
    await schedule.stop();
  });
});
