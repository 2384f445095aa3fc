import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import examples from '@octokit/webhooks-examples';
import { Registry } from 'prom-client';
import type { GitdexEvent } from '@gitdex/contracts';
import type { EventHeaders, EventPublisher } from '@gitdex/ports';
import { SqliteEventLog } from '@gitdex/sqlite';
import { recordingLog } from '../../../test/support/recording-log';
import { createWebhookApp } from '../src/app';
import { RecentDeliveries } from '../src/recent-deliveries';
import { sign } from '../src/signature';

/** Issue 17, item 6: a delivery id seen within the window is answered 202 without publishing again. */
describe('RecentDeliveries', () => {
  /** Claims an id and settles it stored at once; true when this was the first copy. */
  const publishOnce = (recent: RecentDeliveries, id: string): boolean => {
    const claim = recent.claim(id);
    if (claim.first) claim.settle(true);
    return claim.first;
  };

  it('refuses an id claimed within the window, and forgets it after the window', () => {
    let now = 0;
    const recent = new RecentDeliveries({ ttlMs: 1000, now: () => now });
    expect(publishOnce(recent, 'a')).toBe(true);
    now = 999;
    expect(publishOnce(recent, 'a')).toBe(false);
    now = 1000;
    expect(publishOnce(recent, 'a')).toBe(true);
  });

  it('keeps at most maxIds ids, forgetting the oldest first', () => {
    const recent = new RecentDeliveries({ maxIds: 3, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'd']) expect(publishOnce(recent, id)).toBe(true);
    expect(recent.size).toBe(3);
    expect(publishOnce(recent, 'd')).toBe(false);
    expect(publishOnce(recent, 'a')).toBe(true);
  });

  it('a claim settled not stored (publishing failed) can be claimed again', () => {
    const recent = new RecentDeliveries();
    const claim = recent.claim('x');
    expect(claim.first).toBe(true);
    if (claim.first) claim.settle(false);
    expect(publishOnce(recent, 'x')).toBe(true);
  });

  it('a copy arriving while the first is published waits for it: a duplicate once it is stored', async () => {
    const recent = new RecentDeliveries();
    const first = recent.claim('y');
    let answered: unknown = 'waiting';
    const copy = recent.firstCopy('y').then((c) => (answered = c));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe('waiting');
    if (first.first) first.settle(true);
    await copy;
    expect(answered).toBeNull();
  });

  it('a copy arriving while the first is published takes the claim when the first was not stored', async () => {
    const recent = new RecentDeliveries();
    const first = recent.claim('z');
    const copy = recent.firstCopy('z');
    if (first.first) first.settle(false);
    const claim = await copy;
    expect(claim).not.toBeNull();
    expect(recent.claim('z').first).toBe(false);
  });

  it('a copy waiting on a first copy forgotten for room still learns its outcome', async () => {
    const recent = new RecentDeliveries({ maxIds: 1 });
    const first = recent.claim('w');
    const copy = recent.firstCopy('w');
    publishOnce(recent, 'v');
    if (first.first) first.settle(true);
    expect(await copy).toBeNull();
  });

  it('remembers long ids by their hash: distinct, and bounded in size', () => {
    const recent = new RecentDeliveries();
    const long = 'x'.repeat(5000);
    expect(publishOnce(recent, long)).toBe(true);
    expect(publishOnce(recent, `${long}y`)).toBe(true);
    expect(publishOnce(recent, long)).toBe(false);
  });

  it('refuses nonsense limits', () => {
    expect(() => new RecentDeliveries({ maxIds: 0 })).toThrow(/maxIds/);
    expect(() => new RecentDeliveries({ ttlMs: 0 })).toThrow(/ttlMs/);
  });
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the webhook de-duplicates delivery ids', () => {
  const SECRET = 'dedup-secret-0123456789abcdef';
  let log: SqliteEventLog;
  const published: GitdexEvent[] = [];
  let failNext = false;
  /** While set, a publish waits for it: an event log answering slowly. */
  let gate: Promise<void> | null = null;
  /** The app's recent ids, counting claims, so a test knows when a second copy reached them. */
  let claims = 0;
  const recent = new (class extends RecentDeliveries {
    override claim(deliveryId: string) {
      claims += 1;
      return super.claim(deliveryId);
    }
  })();
  let server: http.Server;
  let url: string;

  /** The embedded event log, able to refuse one publish (an event log outage). */
  const publisher: EventPublisher = {
    async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]) {
      if (gate) await gate;
      if (failNext) {
        failNext = false;
        throw new Error('event log unavailable');
      }
      await log.publish(events);
      published.push(...events.map((e) => e.event));
    },
    ping: () => log.ping(),
    close: () => log.close(),
  };

  const push = JSON.stringify((examples as unknown as { name: string; examples: unknown[] }[]).find((e) => e.name === 'push')!.examples[0]);
  const deliver = async (id: string) => {
    const body = Buffer.from(push);
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': id, 'x-hub-signature-256': sign(body, SECRET) },
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    log = new SqliteEventLog({ file: ':memory:', log: recordingLog() });
    const app = createWebhookApp({ secrets: [SECRET], publisher, registry: new Registry(), recentDeliveries: recent });
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await log.close();
  });

  it('publishes a delivery once, answers its replay 202 duplicate, and still takes a new id', async () => {
    expect(await deliver('guid-1')).toEqual({ status: 202, body: { delivery_id: 'guid-1', events: 1 } });
    expect(await deliver('guid-1')).toEqual({ status: 202, body: { delivery_id: 'guid-1', ignored: 'duplicate' } });
    expect(published).toHaveLength(1);
    expect((await deliver('guid-2')).body).toMatchObject({ events: 1 });
    expect(published).toHaveLength(2);
  });

  it('a delivery answered 503 is not a duplicate when it is redelivered', async () => {
    failNext = true;
    expect((await deliver('guid-3')).status).toBe(503);
    expect(await deliver('guid-3')).toEqual({ status: 202, body: { delivery_id: 'guid-3', events: 1 } });
    expect(published.filter((e) => e.eventId.startsWith('guid-3'))).toHaveLength(1);
  });

  it('a copy arriving while the first is still publishing is answered after it, and stored when the first was not', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    failNext = true;
    const before = claims;
    const first = deliver('guid-4');
    await until(() => claims === before + 1);
    const second = deliver('guid-4');
    await until(() => claims === before + 2);
    gate = null;
    open();
    expect((await first).status).toBe(503);
    expect(await second).toEqual({ status: 202, body: { delivery_id: 'guid-4', events: 1 } });
    expect(published.filter((e) => e.eventId.startsWith('guid-4'))).toHaveLength(1);
  });
});
