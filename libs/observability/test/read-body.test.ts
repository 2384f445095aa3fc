import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { addressKey, BodyBudget, BodyError, readBody, type BodyClock, type ReadBodyOptions } from '../src';

/** A clock the test moves: ticks run when it advances. */
function manualClock() {
  let time = 0;
  const ticks = new Set<() => void>();
  const clock: BodyClock & { advance(ms: number): void; running: number } = {
    now: () => time,
    every: (_ms, tick) => {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    advance(ms) {
      time += ms;
      for (const tick of [...ticks]) tick();
    },
    get running() {
      return ticks.size;
    },
  };
  return clock;
}

const limits = { maxBytes: 1000, timeoutMs: 10_000, minBytesPerSecond: 100, graceMs: 2_000 };

function setup(overrides: Partial<ReadBodyOptions> = {}) {
  const budget = new BodyBudget({ maxBytes: 2_000, maxBytesPerAddress: 1_200 });
  const clock = manualClock();
  const source = new PassThrough();
  const read = readBody(source, { ...limits, budget, clock, address: '10.0.0.1', ...overrides });
  return { budget, clock, source, read };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof BodyError ? `${error.code} ${error.status}` : String(error)),
  );
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('readBody: bytes read, never bytes declared', () => {
  test('a body is read whole and stays counted until released', async () => {
    const { budget, source, read } = setup();
    source.write(Buffer.alloc(300));
    source.end(Buffer.alloc(200));
    const body = await read;
    expect(body.bytes.length).toBe(500);
    expect(budget.inFlight).toBe(500);
    body.release();
    body.release();
    expect(budget.inFlight).toBe(0);
  });

  test('a compressed body is refused before a byte is read, whatever it would inflate to', async () => {
    const bomb = gzipSync(Buffer.alloc(24 * 1024 * 1024));
    for (const encoding of ['gzip', 'deflate', 'br', 'GZIP', 'identity, gzip', 'x-gzip']) {
      const { budget, source, read } = setup({ contentEncoding: encoding });
      source.end(bomb);
      expect(await codeOf(read)).toBe('unsupported_encoding 415');
      expect(budget.peak).toBe(0);
    }
    for (const encoding of ['identity', ' Identity ', '']) {
      const { source, read } = setup({ contentEncoding: encoding });
      source.end(Buffer.from('{}'));
      expect((await read).bytes.toString()).toBe('{}');
    }
  });

  test('a declared length over the limit is refused unread; a lying one is cut at the limit', async () => {
    const declared = setup({ contentLength: '1001' });
    expect(await codeOf(declared.read)).toBe('payload_too_large 413');
    const lying = setup({ contentLength: '10' });
    lying.source.write(Buffer.alloc(900));
    lying.source.write(Buffer.alloc(200));
    expect(await codeOf(lying.read)).toBe('payload_too_large 413');
    expect(lying.budget.inFlight).toBe(0);
  });

  test('budgets: an address holds at most its share, all addresses at most the total; failures give back at once', async () => {
    const budget = new BodyBudget({ maxBytes: 2_000, maxBytesPerAddress: 1_200 });
    const clock = manualClock();
    const open = (address: string) => {
      const source = new PassThrough();
      return { source, read: readBody(source, { ...limits, budget, clock, address }) };
    };
    const a1 = open('10.0.0.1');
    const a2 = open('10.0.0.1');
    a1.source.write(Buffer.alloc(800));
    await flush();
    a2.source.write(Buffer.alloc(500));
    expect(await codeOf(a2.read)).toBe('address_busy 429');
    expect(budget.inFlightOf('10.0.0.1')).toBe(800);
    const b = open('10.0.0.2');
    b.source.write(Buffer.alloc(900));
    await flush();
    const c = open('10.0.0.3');
    c.source.write(Buffer.alloc(400));
    expect(await codeOf(c.read)).toBe('busy 503');
    expect(budget.inFlight).toBe(1_700);
    a1.source.destroy();
    expect(await codeOf(a1.read)).toBe('body_aborted 400');
    expect(budget.inFlight).toBe(900);
    b.source.end();
    (await b.read).release();
    expect(budget.inFlight).toBe(0);
    expect(budget.peak).toBe(1_700);
  });

  test('a body still arriving at the deadline is cut off, and so is one slower than the minimum after the grace period', async () => {
    const slow = setup();
    slow.source.write(Buffer.alloc(150));
    await flush();
    slow.clock.advance(1_900);
    await flush();
    slow.clock.advance(200); // 2.1 s: 150 bytes < 100 B/s × 2.1 s
    expect(await codeOf(slow.read)).toBe('body_too_slow 408');
    expect(slow.budget.inFlight).toBe(0);
    expect(slow.clock.running).toBe(0);

    const steady = setup({ minBytesPerSecond: 0 });
    for (let i = 0; i < 9; i += 1) {
      steady.source.write(Buffer.alloc(10));
      steady.clock.advance(1_000);
    }
    await flush();
    steady.clock.advance(1_000);
    expect(await codeOf(steady.read)).toBe('body_timeout 408');
    expect(steady.budget.inFlight).toBe(0);
  });

  test('a body at the minimum rate is read', async () => {
    const { source, clock, read } = setup();
    for (let i = 0; i < 5; i += 1) {
      source.write(Buffer.alloc(120));
      await flush();
      clock.advance(1_000);
    }
    source.end();
    expect((await read).bytes.length).toBe(600);
  });
});

describe('addressKey', () => {
  test('IPv4 as written or mapped; IPv6 by its /64', () => {
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
