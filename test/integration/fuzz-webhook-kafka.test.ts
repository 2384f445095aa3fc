// The webhook endpoint fuzzed against real Kafka: signed deliveries (GitHub's own example
// payloads with fields replaced by hostile values, and junk) and unsigned ones. Every answer is
// below 500 but for the known contract mismatch (see services/webhook/test/fuzz-webhook.test.ts),
// and what Kafka holds afterwards is exactly the events of the deliveries answered 202: each
// one valid, none from an unsigned delivery.
import { randomUUID } from 'node:crypto';
import examples from '@octokit/webhooks-examples';
import fc from 'fast-check';
import { sign } from '@gitdex/webhook';
import { uniqueName } from '../harness/engines';
import { readEvents } from '../support/kafka-reader';
import { startWebhookService, type RunningWebhook } from '../support/webhook-server';

jest.setTimeout(300_000);
const RUNS = (base: number) => Math.max(1, Math.round(base * Number(process.env.GITDEX_FUZZ_RUNS_SCALE ?? '1')));
const SECRET = 'kafka-fuzz-secret-0123456789';

type Example = { name: string; examples: Record<string, unknown>[] };
const byName = (name: string) => (examples as unknown as Example[]).find((e) => e.name === name)?.examples ?? [];
const SEEDS = ['push', 'create', 'delete', 'repository', 'installation', 'installation_repositories'].flatMap((event) =>
  byName(event)
    .slice(0, 4)
    .map((payload) => ({ event, payload })),
);
const FIELDS = [
  'ref',
  'before',
  'after',
  'created',
  'ref_type',
  'action',
  'repository.id',
  'repository.full_name',
  'repository.default_branch',
  'repository.private',
  'repository.html_url',
  'repository.pushed_at',
  'installation.id',
  'repositories_added',
  'repositories',
];
const hostile = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 2 ** 53, '', 'a b/c', 'x'.repeat(3000), '\u0000', 'refs/heads/😀', '0'.repeat(40), [], {}),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);

function mutate(payload: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = payload;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1] as string] = value;
}

describe('webhook → Kafka under fuzzing', () => {
  let webhook: RunningWebhook;
  const topic = uniqueName('fuzz-webhook');
  beforeAll(async () => {
    // Hundreds of unsigned deliveries from one address: the 401 throttle has its own test (admission.test.ts).
    webhook = await startWebhookService(topic, [SECRET], { refusalsPerMinute: 1e9 });
  });
  afterAll(async () => webhook?.close());

  test('signed and unsigned hostile deliveries: below 500, and Kafka holds exactly the accepted events', async () => {
    const accepted = new Map<string, number>();
    const delivery = fc.tuple(
      fc.constantFrom(...SEEDS),
      fc.array(fc.tuple(fc.constantFrom(...FIELDS), hostile), { maxLength: 3 }),
      fc.boolean(),
      fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }) }),
    );
    await fc.assert(
      fc.asyncProperty(delivery, async ([seed, changes, signed, junk]) => {
        const payload = structuredClone(seed.payload);
        for (const [path, value] of changes) mutate(payload, path, value);
        const body = junk ? Buffer.from(junk) : Buffer.from(JSON.stringify(payload));
        const id = randomUUID();
        const response = await fetch(webhook.hookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': seed.event,
            'x-github-delivery': id,
            ...(signed ? { 'x-hub-signature-256': sign(body, SECRET) } : { 'x-hub-signature-256': sign(body, 'wrong-secret') }),
          },
          body,
        });
        const answer = (await response.json()) as { events?: number; error?: string };
        if (!signed) {
          expect(response.status).toBe(401);
          return;
        }
        expect(response.status).toBeLessThan(500);
        if (response.status === 202 && typeof answer.events === 'number' && answer.events > 0) accepted.set(id, answer.events);
      }),
      { numRuns: RUNS(150) },
    );
    const expected = [...accepted.values()].reduce((a, b) => a + b, 0);
    expect(expected).toBeGreaterThan(0);
    const events = await readEvents(topic, expected + 1, 8_000);
    expect(events).toHaveLength(expected);
    for (const { event } of events) expect(accepted.has(event.eventId.split(':')[0]!)).toBe(true);
  });
});
