import examples from '@octokit/webhooks-examples';
import { normalizeDelivery, sign } from '@gitdex/webhook';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { commitFiles, createRepo, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { uniqueName } from '../harness/engines';
import { readEvents, topicSize } from '../support/kafka-reader';
import { startWebhookService, type RunningWebhook } from '../support/webhook-server';

type Example = { name: string; examples: Record<string, unknown>[] };
const RELEVANT = ['push', 'create', 'delete', 'repository', 'installation', 'installation_repositories'];
const SECRET = 'test-secret';

describe('webhook service → real Kafka', () => {
  let topic: string;
  let webhook: RunningWebhook;
  let standIn: GitHubStandIn;
  let root: string;

  beforeAll(async () => {
    topic = uniqueName('webhook');
    webhook = await startWebhookService(topic, ['old-secret', SECRET]);
    root = await makeTempRoot();
    standIn = await createGitHubStandIn({ root, webhookUrl: webhook.hookUrl, secret: SECRET });
  });

  afterAll(async () => {
    await standIn.close();
    await webhook.close();
    await removeTempRoot(root);
  });

  it('publishes a signed push from the stand-in and answers 202 with the delivery id', async () => {
    const repo = await createRepo(root, 'acme', 'widgets', { 'README.md': '# widgets\n' });
    const { delivery: result } = await standIn.push('acme', 'widgets', { ref: 'refs/heads/main' });
    expect(result.status).toBe(202);
    expect(JSON.parse(result.responseBody ?? '')).toMatchObject({ delivery_id: result.id });
    const after = await commitFiles(repo.dir, { 'src/a.ts': 'export {};\n' }, 'add a');
    const { delivery: second } = await standIn.push('acme', 'widgets', { ref: 'refs/heads/main' });
    expect(second.status).toBe(202);

    const events = (await readEvents(topic, 2)).filter((e) => e.event.repository.fullName === 'acme/widgets');
    expect(events.map((e) => e.event.eventId)).toEqual([result.id, second.id]);
    const id = await standIn.repoId('acme', 'widgets');
    expect(events[1]).toMatchObject({ key: String(id), event: { kind: 'push', ref: 'refs/heads/main', after, created: false, deleted: false } });
    expect(events[0]!.event).toMatchObject({ created: true });
    expect(events[1]!.headers['gitdex-delivery-id']).toBe(second.id);
    expect(events[1]!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('turns every relevant example payload of GitHub into the expected events', async () => {
    const topicForExamples = uniqueName('examples');
    const service = await startWebhookService(topicForExamples, [SECRET]);
    try {
      standIn.configure({ webhookUrl: service.hookUrl });
      const expected: unknown[] = [];
      for (const group of (examples as unknown as Example[]).filter((g) => RELEVANT.includes(g.name))) {
        for (const payload of group.examples) {
          const record = await standIn.deliver(group.name, payload);
          expect(record.status).toBe(202);
          const normalized = normalizeDelivery({ event: group.name, deliveryId: record.id, payload, receivedAt: new Date().toISOString() });
          if (normalized.outcome === 'events') expected.push(...normalized.events.map((e) => ({ kind: e.kind, eventId: e.eventId, repository: e.repository })));
        }
      }
      const events = await readEvents(topicForExamples, expected.length);
      expect(events).toHaveLength(expected.length);
      const got = events.map((e) => ({ kind: e.event.kind, eventId: e.event.eventId, repository: e.event.repository }));
      expect(got).toEqual(expect.arrayContaining(expected as object[]));
      for (const e of events) expect(e.key).toBe(String(e.event.repository.id));
    } finally {
      standIn.configure({ webhookUrl: webhook.hookUrl });
      await service.close();
    }
  });

  describe('refusals publish nothing', () => {
    let refusals: string;
    let service: RunningWebhook;
    const payload = Buffer.from(JSON.stringify((examples as unknown as Example[]).find((g) => g.name === 'push')!.examples[1]));
    const post = (body: Buffer, headers: Record<string, string>) =>
      fetch(service.hookUrl, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'd-1', ...headers } });

    beforeAll(async () => {
      refusals = uniqueName('refusals');
      service = await startWebhookService(refusals, ['new-secret', 'old-secret']);
    });
    afterAll(() => service.close());

    it('401 for a missing, wrong-prefixed, wrongly keyed or altered signature', async () => {
      expect((await post(payload, {})).status).toBe(401);
      expect((await post(payload, { 'x-hub-signature-256': sign(payload, 'old-secret').replace('sha256=', 'sha1=') })).status).toBe(401);
      expect((await post(payload, { 'x-hub-signature-256': sign(payload, 'wrong') })).status).toBe(401);
      const altered = Buffer.from(payload);
      altered[10] = altered[10]! ^ 1;
      expect((await post(altered, { 'x-hub-signature-256': sign(payload, 'new-secret') })).status).toBe(401);
    });

    it('400 for malformed JSON and for a payload missing a needed field, naming it', async () => {
      const broken = Buffer.from('{"ref": ');
      const malformed = await post(broken, { 'x-hub-signature-256': sign(broken, 'new-secret') });
      expect(malformed.status).toBe(400);
      const incomplete = JSON.parse(payload.toString()) as Record<string, unknown>;
      delete incomplete.after;
      const body = Buffer.from(JSON.stringify(incomplete));
      const answer = await post(body, { 'x-hub-signature-256': sign(body, 'new-secret') });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'payload_invalid', field: 'after' });
    });

    it('413 for a body over 25 MB', async () => {
      const huge = Buffer.alloc(25 * 1024 * 1024 + 10, 0x20);
      const answer = await post(huge, { 'x-hub-signature-256': sign(huge, 'new-secret') });
      expect(answer.status).toBe(413);
    });

    it('200 for ping and 202 for an event gitdex does not use', async () => {
      const ping = Buffer.from(JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 }));
      expect((await post(ping, { 'x-github-event': 'ping', 'x-hub-signature-256': sign(ping, 'old-secret') })).status).toBe(200);
      const issue = Buffer.from('{"action":"opened"}');
      const ignored = await post(issue, { 'x-github-event': 'issues', 'x-hub-signature-256': sign(issue, 'old-secret') });
      expect(ignored.status).toBe(202);
      expect(await ignored.json()).toMatchObject({ ignored: expect.any(String) });
    });

    it('accepts either secret during a rotation, and nothing refused reached Kafka', async () => {
      expect((await post(payload, { 'x-hub-signature-256': sign(payload, 'old-secret') })).status).toBe(202);
      expect((await post(payload, { 'x-hub-signature-256': sign(payload, 'new-secret'), 'x-github-delivery': 'd-2' })).status).toBe(202);
      expect(await topicSize(refusals)).toBe(2);
      const metrics = await service.registry.metrics();
      expect(metrics).toMatch(/gitdex_webhook_deliveries_total\{event="push",outcome="unauthorized"\} 4/);
      expect(metrics).toMatch(/gitdex_webhook_publish_seconds_count 2/);
    });
  });

  it('keeps 1,000 deliveries at 50 concurrent: none lost, each repository in order', async () => {
    const loadTopic = uniqueName('load');
    const service = await startWebhookService(loadTopic, [SECRET]);
    try {
      const repositories = 50;
      const perRepository = 20;
      const template = (examples as unknown as Example[]).find((g) => g.name === 'push')!.examples[1] as Record<string, unknown>;
      const latencies: number[] = [];
      const started = Date.now();
      await Promise.all(
        Array.from({ length: repositories }, async (_, r) => {
          for (let n = 0; n < perRepository; n += 1) {
            const payload = { ...template, after: (n + 1).toString(16).padStart(40, '0'), repository: { ...(template.repository as object), id: 1000 + r, full_name: `load/r${r}` } };
            const body = Buffer.from(JSON.stringify(payload));
            const t0 = performance.now();
            const answer = await fetch(service.hookUrl, {
              method: 'POST',
              body,
              headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': `load-${r}-${n}`, 'x-hub-signature-256': sign(body, SECRET) },
            });
            latencies.push(performance.now() - t0);
            expect(answer.status).toBe(202);
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      const events = await readEvents(loadTopic, repositories * perRepository, 60_000);
      expect(events).toHaveLength(repositories * perRepository);
      const byRepository = new Map<number, number[]>();
      for (const e of events.sort((a, b) => a.partition - b.partition || a.offset - b.offset)) {
        if (e.event.kind !== 'push') continue;
        const list = byRepository.get(e.event.repository.id) ?? [];
        list.push(parseInt(e.event.after, 16));
        byRepository.set(e.event.repository.id, list);
      }
      for (const sequence of byRepository.values()) expect(sequence).toEqual(Array.from({ length: perRepository }, (_, i) => i + 1));
      latencies.sort((a, b) => a - b);
      // Figures for the record, not assertions: performance is measured by `npm run bench`.
      process.stdout.write(
        `webhook load: ${(events.length / seconds).toFixed(0)} deliveries/s, ack p50 ${latencies[Math.floor(latencies.length * 0.5)]!.toFixed(1)} ms, p99 ${latencies[Math.floor(latencies.length * 0.99)]!.toFixed(1)} ms\n`,
      );
    } finally {
      await service.close();
    }
  });
});
