import { DEFAULT_RECONCILER_ASSUMPTIONS, reconcilerLoad } from '../../bench/scaling/model';

describe('capacity model: the reconciler', () => {
  it('300 quiet repositories: 3 counted requests every 5 minutes once the ETags are known', () => {
    expect(reconcilerLoad()).toMatchObject({ listPagesPerPass: 3, headsPerPass: 300, firstPassCounted: 303, intervalSeconds: 300 });
    const load = reconcilerLoad();
    expect(load.countedPerPass).toBeCloseTo(6, 0);
    expect(load.requestsPerHour).toBeLessThanOrEqual(500);
  });

  it('10,000 busy repositories: the interval grows so the reconciler never spends more than its share', () => {
    const load = reconcilerLoad({ ...DEFAULT_RECONCILER_ASSUMPTIONS, repositories: 10_000, pushesPerSecond: 50 });
    expect(load.requestsPerHour).toBeLessThanOrEqual(500);
    expect(load.intervalSeconds).toBeGreaterThan(3600);
  });
});
