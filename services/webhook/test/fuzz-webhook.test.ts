import { recordingLog } from '../../../test/support/recording-log';
import { slowRequest } from '../../../test/support/slow-request';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import examples from '@octokit/webhooks-examples';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { GitdexEventSchema, type GitdexEvent } from '@gitdex/contracts';
import { BodyBudget } from '@gitdex/observability';
import type { EventHeaders, EventPublisher } from '@gitdex/ports';
import { SqliteEventLog } from '@gitdex/sqlite';
import { createWebhookApp } from '../src/app';
import { sign, verifySignature } from '../src/signature';

/**
 * The webhook endpoint over real HTTP with the embedded event log as publisher, fed random and
 * adversarial deliveries. Properties: a delivery not signed with a configured secret is 401
 * and publishes nothing; a signed one is answered below 500 in JSON (202 with events that all
 * satisfy the event contract, 200 for ping, or 400 naming what is wrong, publishing nothing).
 */
jest.setTimeout(120_000);
const RUNS = (base: number) => Math.max(1, Math.round(base * Number(process.env.GITDEX_FUZZ_RUNS_SCALE ?? '1')));

const SECRET = 'fuzz-secret-current-0123456789';
const OLD_SECRET = 'fuzz-secret-previous-9876543210';

type Example = { name: string; examples: Record<string, unknown>[] };
const byName = (name: string) => (examples as unknown as Example[]).find((e) => e.name === name)?.examples ?? [];
const EVENTS = ['push', 'create', 'delete', 'repository', 'installation', 'installation_repositories', 'ping'] as const;
const SEEDS = EVENTS.flatMap((event) =>
  byName(event)
    .slice(0, 6)
    .map((payload) => ({ event, payload })),
);

/** Records what the event log acknowledged. */
class Recording implements EventPublisher {
  readonly published: GitdexEvent[] = [];
  constructor(private readonly inner: SqliteEventLog) {}
  async publish(events: { event: GitdexEvent; headers?: EventHeaders }[]): Promise<void> {
    await this.inner.publish(events);
    this.published.push(...events.map((e) => e.event));
  }
  ping() {
    return this.inner.ping();
  }
  close() {
    return this.inner.close();
  }
}

let log: SqliteEventLog;
let publisher: Recording;
let url: string;
let server: http.Server;
/** What the webhook's bodies hold, watched so that every refused or answered body gives its bytes back. */
const budget = new BodyBudget({ maxBytes: 64 * 1024 * 1024, maxBytesPerAddress: 64 * 1024 * 1024 });
/** A second webhook with short body limits, for bodies sent slowly. */
let hurried: http.Server;
let hurriedUrl: string;
const HURRIED = { timeoutMs: 400, minBytesPerSecond: 2_000, graceMs: 150 };

const listen = (app: http.RequestListener): Promise<http.Server> =>
  new Promise((resolve) => {
    const s = http.createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
const close = (s: http.Server) =>
  new Promise<void>((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });

beforeAll(async () => {
  log = new SqliteEventLog({ file: ':memory:', log: recordingLog() });
  publisher = new Recording(log);
  // Hundreds of unsigned deliveries from one address: the 401 throttle has its own test (admission.test.ts).
  const admission = { refusalsPerMinute: 1e9 };
  server = await listen(createWebhookApp({ secrets: [SECRET, OLD_SECRET], publisher, registry: new Registry(), admission, body: { budget } }));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`;
  hurried = await listen(createWebhookApp({ secrets: [SECRET, OLD_SECRET], publisher, registry: new Registry(), admission, body: { ...HURRIED, budget } }));
  hurriedUrl = `http://127.0.0.1:${(hurried.address() as AddressInfo).port}/webhooks/github`;
});
afterAll(async () => {
  await close(server);
  await close(hurried);
  await log.close();
});

/** Every body's bytes are given back once its answer is sent (the release runs as the response closes). */
async function expectBudgetReleased(): Promise<void> {
  for (let i = 0; i < 100 && budget.inFlight > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(budget.inFlight).toBe(0);
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

function deliver(body: Buffer, headers: Record<string, string>): Promise<Answer> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: pathname, method: 'POST', headers: { 'content-length': String(body.length), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Values that do not belong in a field: wrong types, hostile text, extreme numbers. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 53,
    1e21,
    -1e308,
    '',
    ' ',
    'a b/c',
    'abc',
    'a/b/c',
    '../../x',
    // Names a request path would resolve elsewhere (GET /repos/../user is GET /user), or GitHub never allows.
    '../user',
    'octo/..',
    './user',
    '..',
    '.',
    '..%2Frate_limit/x',
    'oc--to/x',
    'x'.repeat(5000),
    '\u0000',
    'refs/heads/\u0000',
    '0'.repeat(40),
    'G'.repeat(40),
    'not a url',
    'javascript:alert(1)',
    '2020-13-45',
    1e13,
    -1e13,
    8.64e15,
    [],
    {},
    [1, 2],
    { id: -1 },
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Where hostile values go: the fields gitdex reads, and a few it does not. */
const FIELDS = [
  'ref',
  'before',
  'after',
  'created',
  'deleted',
  'forced',
  'ref_type',
  'action',
  'repository',
  'repository.id',
  'repository.full_name',
  'repository.default_branch',
  'repository.master_branch',
  'repository.private',
  'repository.html_url',
  'repository.pushed_at',
  'installation',
  'installation.id',
  'repositories',
  'repositories_added',
  'repositories_removed',
  'repositories_added.0.full_name',
  'repositories_added.0.id',
  'repositories.0.full_name',
  'changes.repository.name.from',
  'changes.owner.from.user.login',
  'commits',
  'sender',
  '__proto__',
  'constructor',
];

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) {
      const fresh: Record<string, unknown> = {};
      Object.defineProperty(node, key, { value: fresh, enumerable: true, configurable: true, writable: true });
      node = fresh;
    } else node = next as Record<string, unknown>;
  }
  Object.defineProperty(node, keys[keys.length - 1] as string, { value, enumerable: true, configurable: true, writable: true });
}

/** A real payload of GitHub's with some fields replaced by hostile values. */
const mutatedDelivery = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.constantFrom(...FIELDS), hostileValue), { maxLength: 4 }),
    fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...EVENTS) }),
  )
  .map(([seed, changes, otherEvent]) => {
    const payload = structuredClone(seed.payload);
    for (const [path, value] of changes) setPath(payload, path, value);
    return { event: otherEvent ?? seed.event, body: Buffer.from(JSON.stringify(payload)) };
  });

/** Bodies that are not a payload at all. */
const junkBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)),
  fc.jsonValue({ maxDepth: 5 }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => Buffer.from(s)),
  fc.constantFrom(
    Buffer.from(''),
    Buffer.from('{'),
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from('{"ref":"\xc3\x28"}', 'latin1'),
    Buffer.from('\ufeff{}'),
    Buffer.from('null'),
    Buffer.from('[]'),
    Buffer.from('1e999'),
  ),
);

const deliveryId = fc.oneof(
  { weight: 5, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(199), 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(5000)) },
);
const eventName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...EVENTS) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')) });

/** Signature headers that are not a valid signature of the body with a configured secret. */
const badSignature = (body: Buffer): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('', 'sha256=', 'sha256', 'sha1=abc', 'SHA256=' + '0'.repeat(64), 'sha256=' + '0'.repeat(64), 'sha256=' + 'z'.repeat(64), 'sha256=' + '0'.repeat(63), 'sha256=' + '0'.repeat(66)),
    fc.stringMatching(/^sha256=[0-9a-f]{64}$/),
    fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
    fc.constant(sign(body, 'some-other-secret')),
    fc.constant(sign(Buffer.concat([body, Buffer.from(' ')]), SECRET)),
    fc.constant('sha1=' + crypto.createHmac('sha1', SECRET).update(body).digest('hex')),
  );

function checkJson(answer: Answer): Record<string, unknown> {
  expect(answer.contentType).toMatch(/^application\/json/);
  return JSON.parse(answer.body) as Record<string, unknown>;
}

describe('webhook endpoint', () => {
  test('not signed with a configured secret: 401, nothing published, whatever the body and headers', async () => {
    const body = fc.oneof(
      mutatedDelivery.map((d) => d.body),
      junkBody,
    );
    await fc.assert(
      fc.asyncProperty(
        body.chain((b) => fc.tuple(fc.constant(b), badSignature(b), eventName, deliveryId, fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''))),
        async ([bytes, signature, event, id, contentType]) => {
          const before = publisher.published.length;
          const answer = await deliver(bytes, {
            'x-github-event': event,
            'x-github-delivery': id,
            ...(signature !== undefined ? { 'x-hub-signature-256': signature } : {}),
            ...(contentType ? { 'content-type': contentType } : {}),
          });
          expect(answer.status).toBe(401);
          expect(checkJson(answer)).toMatchObject({ error: 'signature_invalid' });
          expect(publisher.published.length).toBe(before);
        },
      ),
      { numRuns: RUNS(300) },
    );
  });

  test('signed (current or previous secret), any event and payload: below 500 in JSON; what is published satisfies the event contract', async () => {
    const delivery = fc.oneof({ weight: 3, arbitrary: mutatedDelivery }, { weight: 1, arbitrary: fc.tuple(eventName, junkBody).map(([event, body]) => ({ event, body })) });
    const tally = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(delivery, fc.constantFrom(SECRET, OLD_SECRET), deliveryId, async ({ event, body }, secret, id) => {
        const before = publisher.published.length;
        const answer = await deliver(body, { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': id, 'x-hub-signature-256': sign(body, secret) });
        tally.set(String(answer.status), (tally.get(String(answer.status)) ?? 0) + 1);
        expect(answer.status).toBeLessThan(500);
        const parsed = checkJson(answer);
        const added = publisher.published.slice(before);
        if (answer.status === 202 && typeof parsed.events === 'number') {
          expect(added).toHaveLength(parsed.events);
          for (const published of added) expect(GitdexEventSchema.safeParse(published).success).toBe(true);
          for (const published of added) expect(published.eventId.startsWith(id)).toBe(true);
        } else expect(added).toEqual([]);
        if (answer.status === 400) expect(typeof parsed.error).toBe('string');
      }),
      { numRuns: RUNS(400) },
    );
    if (process.env.GITDEX_FUZZ_TALLY) console.log('webhook statuses', JSON.stringify(Object.fromEntries(tally)));
    // The mutations keep enough deliveries valid that the publishing path is exercised.
    expect(tally.get('202') ?? 0).toBeGreaterThan(RUNS(400) / 10);
  });

  test('10,000 levels of nesting, huge arrays and a body past the 25 MB limit: below 500, bounded', async () => {
    const nested = Buffer.from(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`);
    const arrays = Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    const install = byName('installation_repositories')[0]!;
    const many = Buffer.from(
      JSON.stringify({
        ...install,
        repositories_added: Array.from({ length: 5_000 }, (_, i) => ({ id: i + 1, node_id: 'x', name: `r${i}`, full_name: `o/r${i}`, private: false })),
        repositories_removed: [],
      }),
    );
    const manyJunk = Buffer.from(JSON.stringify({ ...install, repositories_added: Array.from({ length: 100_000 }, () => 1), repositories_removed: [] }));
    for (const [event, body] of [
      ['push', nested],
      ['push', arrays],
      ['repository', nested],
      ['installation_repositories', many],
      ['installation_repositories', manyJunk],
    ] as const) {
      // Each body is answered (a server stuck on one fails the test by its timeout); how fast is the bench's to measure.
      const answer = await deliver(body, { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': crypto.randomUUID(), 'x-hub-signature-256': sign(body, SECRET) });
      expect({ event, size: body.length, status: answer.status }).toEqual({ event, size: body.length, status: answer.status < 500 ? answer.status : 'a 5xx' });
      checkJson(answer);
    }
    const tooBig = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    const answer = await deliver(tooBig, { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'big', 'x-hub-signature-256': sign(tooBig, SECRET) });
    expect(answer.status).toBe(413);
    expect(checkJson(answer)).toMatchObject({ error: 'payload_too_large' });
  });
});

/** A body compressed the ways HTTP allows, under an encoding header that names it (or lies). */
const compressed = (body: Buffer): fc.Arbitrary<{ bytes: Buffer; encoding: string }> =>
  fc.oneof(
    fc.constant({ bytes: zlib.gzipSync(body), encoding: 'gzip' }),
    fc.constant({ bytes: zlib.deflateSync(body), encoding: 'deflate' }),
    fc.constant({ bytes: zlib.brotliCompressSync(body), encoding: 'br' }),
    fc.constantFrom('x-gzip', 'GZIP', 'gzip, identity', 'identity, gzip', 'compress', 'zstd', 'deflate, gzip').map((encoding) => ({ bytes: zlib.gzipSync(body), encoding })),
    fc.string({ minLength: 1, maxLength: 20 }).map((e) => ({ bytes: body, encoding: e.replace(/[^\x21-\x7e]/g, 'x') })),
  );

describe('compressed and slow bodies (issue 40)', () => {
  test('any Content-Encoding but identity: 415 before a byte is read, whatever the body and signature; nothing published', async () => {
    const delivery = fc.oneof(
      mutatedDelivery,
      fc.tuple(eventName, junkBody).map(([event, body]) => ({ event, body })),
    );
    await fc.assert(
      fc.asyncProperty(
        delivery.chain((d) => fc.tuple(fc.constant(d), compressed(d.body))),
        fc.constantFrom('raw', 'compressed', 'forged'),
        async ([{ event, body }, { bytes, encoding }], signed) => {
          fc.pre(encoding.trim().toLowerCase() !== 'identity');
          const before = publisher.published.length;
          const peak = budget.peak;
          const signature = signed === 'raw' ? sign(body, SECRET) : signed === 'compressed' ? sign(bytes, SECRET) : 'sha256=' + 'f'.repeat(64);
          const answer = await deliver(bytes, {
            'content-type': 'application/json',
            'content-encoding': encoding,
            'x-github-event': event,
            'x-github-delivery': crypto.randomUUID(),
            'x-hub-signature-256': signature,
          });
          expect(answer.status).toBe(415);
          expect(checkJson(answer)).toMatchObject({ error: 'unsupported_encoding' });
          expect(publisher.published.length).toBe(before);
          expect(budget.peak).toBe(peak);
        },
      ),
      { numRuns: RUNS(150) },
    );
    await expectBudgetReleased();
  });

  test('a Content-Encoding of identity, any case and spacing, is read as sent', async () => {
    const body = Buffer.from(JSON.stringify({ zen: 'identity', hook_id: 1 }));
    for (const encoding of ['identity', 'IDENTITY', ' identity ', '']) {
      const answer = await deliver(body, {
        'content-type': 'application/json',
        'content-encoding': encoding,
        'x-github-event': 'ping',
        'x-github-delivery': crypto.randomUUID(),
        'x-hub-signature-256': sign(body, SECRET),
      });
      expect({ encoding, status: answer.status }).toEqual({ encoding, status: 200 });
    }
  });

  test('bodies sent in pieces with pauses: the answer a whole body gets, or 408 once too slow; never a 5xx, every byte given back', async () => {
    // A sender at speed (pieces of hundreds of bytes or more, any pauses), or a trickle (a few bytes every 60–150 ms).
    const plan = fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.tuple(fc.integer({ min: 100, max: 4000 }), fc.integer({ min: 0, max: 150 })), { minLength: 1, maxLength: 8 }) },
      { weight: 1, arbitrary: fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 60, max: 150 })), { minLength: 4, maxLength: 8 }) },
    );
    const tally = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(mutatedDelivery, fc.boolean(), fc.boolean(), plan, async ({ event, body }, signed, chunked, pieces) => {
        const before = publisher.published.length;
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': crypto.randomUUID(),
          'x-hub-signature-256': signed ? sign(body, SECRET) : 'sha256=' + '0'.repeat(64),
          ...(chunked ? {} : { 'content-length': String(body.length) }),
        };
        const call = slowRequest(new URL(hurriedUrl), { headers });
        let sent = 0;
        for (const [size, pause] of pieces) {
          if (sent >= body.length) break;
          call.write(body.subarray(sent, sent + size));
          sent += size;
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
        call.end(body.subarray(sent));
        const answer = await call.answer;
        tally.set(String(answer.status), (tally.get(String(answer.status)) ?? 0) + 1);
        expect(answer.status).toBeLessThan(500);
        if (answer.status === 408) {
          expect(['body_too_slow', 'body_timeout']).toContain(answer.body.error);
          expect(publisher.published.length).toBe(before);
        } else if (!signed) expect(answer.status).toBe(401);
      }),
      { numRuns: RUNS(40) },
    );
    if (process.env.GITDEX_FUZZ_TALLY) console.log('slow webhook statuses', JSON.stringify(Object.fromEntries(tally)));
    // Both outcomes come up: bodies fast enough are read, the others cut off.
    expect(tally.get('408') ?? 0).toBeGreaterThan(0);
    expect([...tally.keys()].some((status) => status !== '408')).toBe(true);
    await expectBudgetReleased();
  });
});

describe('signatures', () => {
  afterEach(() => jest.restoreAllMocks());

  test('compared in constant time with every configured secret, whichever matches', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    const body = Buffer.from('{"zen":"x"}');
    const secrets = ['one-secret-aaaaaaaa', 'two-secret-bbbbbbbb', 'three-secret-cccccc'];
    for (const signature of [sign(body, secrets[0]!), sign(body, secrets[2]!), sign(body, 'none'), 'sha256=' + 'ab'.repeat(32)]) {
      spy.mockClear();
      verifySignature(body, signature, secrets);
      expect(spy).toHaveBeenCalledTimes(3);
      for (const [a, b] of spy.mock.calls) expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });

  test('rotation: the old and the new secret both pass while both are configured; a removed one does not', async () => {
    const body = Buffer.from(JSON.stringify({ zen: 'rotate', hook_id: 1 }));
    const ping = (secret: string) =>
      deliver(body, { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': crypto.randomUUID(), 'x-hub-signature-256': sign(body, secret) });
    expect((await ping(SECRET)).status).toBe(200);
    expect((await ping(OLD_SECRET)).status).toBe(200);
    expect((await ping('retired-secret-000000000')).status).toBe(401);
  });
});

describe('signed deliveries whose event breaks the event contract are refused with 400, never published', () => {
  const push = byName('push')[0]!;
  const send = async (payload: unknown, id: string = crypto.randomUUID()) => {
    const body = Buffer.from(JSON.stringify(payload));
    return deliver(body, { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': id, 'x-hub-signature-256': sign(body, SECRET) });
  };
  test('a delivery id over 200 characters', async () => {
    expect((await send(push, 'x'.repeat(201))).status).toBe(400);
  });
  test('a repository full_name that is not owner/name', async () => {
    expect((await send({ ...push, repository: { ...(push.repository as object), full_name: 'no-slash' } })).status).toBe(400);
  });
  test.each(['../user', 'octo/..', './x', '../rate_limit/x', '..%2Fuser/x', '-octo/x', 'octo/a b', `${'a'.repeat(40)}/x`])(
    'a repository full_name GitHub never allows (%s): dot segments would turn /repos/{owner}/{name} into another endpoint',
    async (fullName) => {
      const installation = byName('installation')[0] as Record<string, unknown>;
      const install = (name: string) => {
        const body = Buffer.from(JSON.stringify({ ...installation, action: 'created', repositories: [{ id: 5, node_id: 'x', name: 'r', full_name: name, private: false }] }));
        return deliver(body, { 'content-type': 'application/json', 'x-github-event': 'installation', 'x-github-delivery': crypto.randomUUID(), 'x-hub-signature-256': sign(body, SECRET) });
      };
      // The same deliveries with a name GitHub allows are accepted: the name alone is refused.
      expect((await send({ ...push, repository: { ...(push.repository as object), full_name: 'octo/fine.js' } })).status).toBe(202);
      expect((await install('octo/fine.js')).status).toBe(202);
      const before = publisher.published.length;
      expect((await send({ ...push, repository: { ...(push.repository as object), full_name: fullName } })).status).toBe(400);
      expect((await install(fullName)).status).toBe(400);
      expect(publisher.published.length).toBe(before);
    },
  );
  test('a pushed_at past the year 9999 is only information: the delivery is accepted without it', async () => {
    expect((await send({ ...push, repository: { ...(push.repository as object), pushed_at: 1e13 } })).status).toBe(202);
    expect((await send({ ...push, repository: { ...(push.repository as object), pushed_at: 3e11 } })).status).toBe(202);
  });
});
