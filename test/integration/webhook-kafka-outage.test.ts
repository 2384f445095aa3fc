import examples from '@octokit/webhooks-examples';
import { sign } from '@gitdex/webhook';
import { privateEngines, uniqueName, type PrivateEngines } from '../harness/engines';
import { readEvents } from '../support/kafka-reader';
import { startWebhookService, type RunningWebhook } from '../support/webhook-server';

type Example = { name: string; examples: Record<string, unknown>[] };
const SECRET = 'outage-secret';
const template = (examples as unknown as Example[]).find((g) => g.name === 'push')!.examples[1] as Record<string, unknown>;

describe('webhook service while Kafka is down', () => {
  let engines: PrivateEngines;
  let webhook: RunningWebhook;
  let topic: string;

  beforeAll(async () => {
    engines = await privateEngines(['kafka'], 'webhook-outage');
    topic = uniqueName('outage');
    webhook = await startWebhookService(topic, [SECRET], { brokers: [engines.kafkaBrokers], publishTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await webhook.close();
    await engines.close();
  });

  const deliver = async (n: number) => {
    const body = Buffer.from(JSON.stringify({ ...template, after: n.toString(16).padStart(40, '0') }));
    const answer = await fetch(webhook.hookUrl, {
      method: 'POST',
      body,
      // GitHub drops a delivery it has no answer for after 10 s: so does this caller.
      signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': `outage-${n}`, 'x-hub-signature-256': sign(body, SECRET) },
    });
    return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
  };

  it("answers 503 with Retry-After (never 202) while Kafka is down, well within GitHub's 10 s, and recovers after", async () => {
    expect((await deliver(1)).status).toBe(202);
    const answers: { n: number; status: number }[] = [];
    await engines.withDown(
      'kafka',
      0,
      async () => {
        for (let n = 2; n <= 4; n += 1) {
          const answer = await deliver(n);
          answers.push({ n, status: answer.status });
          expect(answer.status).toBe(503);
          expect(answer.retryAfter).toBe('5');
        }
        const ready = await fetch(`${webhook.url}/readyz`);
        expect(ready.status).toBe(503);
      },
      { force: true },
    );

    // Kafka is back: GitHub (or the operator) redelivers what got a 503.
    let recovered = 0;
    for (let attempt = 0; attempt < 60 && recovered === 0; attempt += 1) {
      if ((await deliver(5)).status === 202) recovered = 5;
      else await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(recovered).toBe(5);
    for (const { n } of answers) expect((await deliver(n)).status).toBe(202);

    const events = await readEvents(topic, 5, 30_000, [engines.kafkaBrokers]);
    const accepted = events.map((e) => (e.event.kind === 'push' ? parseInt(e.event.after, 16) : -1)).sort();
    // Every 202 is in Kafka; a 503'd delivery may also be there (a late ack), never the other way round.
    expect(accepted).toEqual(expect.arrayContaining([1, 2, 3, 4, 5]));
    expect((await fetch(`${webhook.url}/readyz`)).status).toBe(200);
  });
});
