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
  it('refuses an id claimed within the window, and forgets it after the window', () => {
    let now = 0;
    const recent = new RecentDeliveries({ ttlMs: 1000, now: () => now });
    expect(recent.claim('a')).toBe(true);
    now = 999;
    expect(recent.claim('a')).toBe(false);
    now = 1000;
    expect(recent.claim('a')).toBe(true);
  });

  it('keeps at most maxIds ids, forgetting the oldest first', () => {
    const recent = new RecentDeliveries({ maxIds: 3, now: () => 0 });
    for (const id of ['a', 'b', 'c', 'd']) expect(recent.claim(id)).toBe(true);
    expect(recent.size).toBe(3);
    expect(recent.claim('d')).toBe(false);
    expect(recent.claim('a')).toBe(true);
  });

  it('a released claim (publishing failed) can be claimed again', () => {
    const recent = new RecentDeliveries();
    expect(recent.claim('x')).toBe(true);
    recent.release('x');
    expect(recent.claim('x')).toBe(true);
  });

  it('remembers long ids by their hash: distinct, and bounded in size', () => {
    const recent = new RecentDeliveries();
    const long = 'x'.repeat(5000);
    expect(recent.claim(long)).toBe(true);
    expect(recent.claim(`${long}y`)).toBe(true);
    expect(recent.claim(long)).toBe(false);
  });

  it('refuses nonsense limits', () => {
    expect(() => new RecentDeliveries({ maxIds: 0 })).toThrow(/maxIds/);
    expect(() => new RecentDeliveries({ ttlMs: 0 })).toThrow(/ttlMs/);
  });
});

describe('the webhook de-duplicates delivery ids', () => {
  const SECRET = 'dedup-secret-0123456789abcdef';
  let log: SqliteEventLog;
  const published: GitdexEvent[] = [];
  let failNext = false;
  let server: http.Server;
  let url: string;

  /** The embedded event log, able to refuse one publish (an event log outage). */
  const publisher: EventPublisher = {
    async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]) {
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
    const app = createWebhookApp({ secrets: [SECRET], publisher, registry: new Registry() });
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
});
