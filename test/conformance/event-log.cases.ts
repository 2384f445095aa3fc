import type { GitdexEvent } from '@gitdex/contracts';
import type { EventConsumer, EventEnvelope, EventPublisher } from '@gitdex/ports';

/** One adapter of the event-log port under test: a publisher and a way to make consumers of the same log. */
export interface EventLogUnderTest {
  publisher: EventPublisher;
  consumer(): EventConsumer;
  close(): Promise<void>;
}

const push = (repositoryId: number, n: number): GitdexEvent => ({
  kind: 'push',
  eventId: `e-${repositoryId}-${n}`,
  repository: { id: repositoryId, fullName: `conf/r${repositoryId}` },
  receivedAt: new Date(0).toISOString(),
  ref: 'refs/heads/main',
  before: '0'.repeat(40),
  after: n.toString(16).padStart(40, '0'),
  created: false,
  deleted: false,
  forced: false,
});

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The event-log port's promises, the same for every adapter: every published event is
 * handled; one repository's events arrive in order; a batch whose handler threw is
 * delivered again; what was not handled when a consumer stopped goes to the next one.
 */
export function describeEventLogConformance(name: string, make: () => Promise<EventLogUnderTest>): void {
  describe(`event log conformance: ${name}`, () => {
    it('delivers every event, each repository in publish order, with its headers', async () => {
      const log = await make();
      const seen: EventEnvelope[] = [];
      const consumer = log.consumer();
      try {
        await consumer.start(async (batch) => {
          seen.push(...batch);
        });
        for (let n = 1; n <= 20; n += 1) {
          await log.publisher.publish([1, 2, 3].map((repo) => ({ event: push(repo, n), headers: { traceparent: `t-${repo}-${n}` } })));
        }
        await until(() => seen.length >= 60, '60 events');
        expect(seen).toHaveLength(60);
        for (const repo of [1, 2, 3]) {
          const mine = seen.filter((e) => e.event.repository.id === repo);
          expect(mine.map((e) => e.event.eventId)).toEqual(Array.from({ length: 20 }, (_, i) => `e-${repo}-${i + 1}`));
          expect(mine[4]!.headers.traceparent).toBe(`t-${repo}-5`);
        }
      } finally {
        await consumer.stop();
        await log.close();
      }
    });

    it('delivers a batch again when its handler threw, without skipping ahead', async () => {
      const log = await make();
      const handled: string[] = [];
      let failures = 0;
      const consumer = log.consumer();
      try {
        await consumer.start(async (batch) => {
          if (batch.some((e) => e.event.eventId === 'e-7-2') && failures < 2) {
            failures += 1;
            throw new Error('transient');
          }
          handled.push(...batch.map((e) => e.event.eventId));
        });
        await log.publisher.publish([1, 2, 3].map((n) => ({ event: push(7, n) })));
        await until(() => handled.includes('e-7-3'), 'e-7-3');
        expect(failures).toBe(2);
        expect(handled.filter((id) => id === 'e-7-2')).toHaveLength(1);
        expect(handled.indexOf('e-7-2')).toBeLessThan(handled.indexOf('e-7-3'));
      } finally {
        await consumer.stop();
        await log.close();
      }
    });

    it('hands what a stopped consumer had not handled to the next consumer, and reports lag', async () => {
      const log = await make();
      const first = log.consumer();
      const handled = new Set<string>();
      let block = true;
      let refused = 0;
      await first.start(async (batch) => {
        if (block) {
          refused += batch.length;
          throw new Error('not now');
        }
        batch.forEach((e) => handled.add(e.event.eventId));
      });
      await log.publisher.publish(Array.from({ length: 5 }, (_, i) => ({ event: push(9, i + 1) })));
      // The first consumer was handed the events and failed them: what it leaves is unhandled, not unseen.
      await until(() => refused > 0, 'the first consumer to be handed the events');
      await first.stop();
      expect(await first.lag()).toBeGreaterThanOrEqual(5);
      block = false;
      const second = log.consumer();
      try {
        await second.start(async (batch) => {
          batch.forEach((e) => handled.add(e.event.eventId));
        });
        await until(() => handled.size === 5, 'all 5 events on the second consumer');
      } finally {
        await second.stop();
        await log.close();
      }
    });

    it('refuses an event that breaks the contract, publishing nothing of its batch', async () => {
      const log = await make();
      try {
        const bad = { ...push(1, 1), after: 'not-a-sha' } as GitdexEvent;
        await expect(log.publisher.publish([{ event: push(1, 2) }, { event: bad }])).rejects.toThrow();
        expect(await log.publisher.ping()).toBe(true);
      } finally {
        await log.close();
      }
    });
  });
}
