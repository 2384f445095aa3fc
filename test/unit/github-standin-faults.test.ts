// Fault bookkeeping and the rate-limit window of the GitHub stand-in.
import { FaultStore } from '../github-standin/faults';
import { RateLimiter } from '../github-standin/rate-limit';

describe('FaultStore', () => {
  it('hits error faults once by default and latency until cleared', () => {
    const faults = new FaultStore();
    faults.add({ type: '5xx' });
    faults.add({ type: 'latency', ms: 5 });
    expect(faults.takeFirst(['5xx', 'rate_limit'], '/repos/a/b')?.spec).toMatchObject({ type: '5xx', status: 502 });
    expect(faults.takeFirst(['5xx', 'rate_limit'], '/repos/a/b')).toBeUndefined();
    for (let i = 0; i < 3; i += 1) expect(faults.takeAll(['latency'], '/x')).toHaveLength(1);
    faults.clear();
    expect(faults.list()).toEqual([]);
  });

  it('counts down `count` and scopes by route substring', () => {
    const faults = new FaultStore();
    const fault = faults.add({ type: 'rate_limit', kind: 'secondary', count: 2, route: '/git/blobs/' });
    expect(fault.spec).toMatchObject({ kind: 'secondary', status: 403, retryAfter: 1 });
    expect(faults.takeFirst(['rate_limit'], '/repos/a/b/git/trees/main')).toBeUndefined();
    expect(faults.takeFirst(['rate_limit'], '/repos/a/b/git/blobs/abc')?.remaining).toBe(1);
    expect(faults.takeFirst(['rate_limit'], '/repos/a/b/git/blobs/abc')?.hits).toBe(2);
    expect(faults.list()).toEqual([]);
  });

  it('applies faults in the order they were added and can remove one', () => {
    const faults = new FaultStore();
    const first = faults.add({ type: '5xx', status: 500 });
    faults.add({ type: '5xx', status: 503 });
    expect(faults.remove(first.id)).toBe(true);
    expect(faults.takeFirst(['5xx'], '/')?.spec).toMatchObject({ status: 503 });
  });

  it('rejects malformed faults', () => {
    const faults = new FaultStore();
    expect(() => faults.add({ type: 'nope' } as never)).toThrow();
    expect(() => faults.add({ type: 'latency' } as never)).toThrow();
    expect(() => faults.add({ type: '5xx', count: 0 })).toThrow();
  });
});

describe('RateLimiter', () => {
  it('uses, refunds and resets units per window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, 60, () => now);
    expect(limiter.consume()).toBe(true);
    expect(limiter.consume()).toBe(true);
    expect(limiter.consume()).toBe(false);
    expect(limiter.snapshot()).toMatchObject({ limit: 2, remaining: 0, used: 2, reset: 1060 });
    limiter.refund();
    expect(limiter.snapshot().remaining).toBe(1);
    now += 61_000;
    expect(limiter.snapshot()).toMatchObject({ remaining: 2, used: 0, reset: 1121 });
  });
});
