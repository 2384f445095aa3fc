import http from 'node:http';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { BodyBudget } from '@gitdex/observability';
import { slowRequest } from '../../../../test/support/slow-request';
import { ToolErrorCodeSchema } from '@gitdex/contracts';
import { allowedHostsFor } from '../../src/http/host';
import { faulty } from '../support/faults';
import { hostilePath, hostileRef, hostileRepository, runs, toolArguments, wrongType } from './arbitraries';
import { depsFor, JSON_RPC_HEADERS, serve, type Served } from './helpers';
import { createSecurityWorld, leaks, TOKENS, type Caller, type SecurityWorld } from './world';

/**
 * The reader over real HTTP (port 0): every REST route and the MCP endpoint with random and
 * adversarial requests. Properties: never a 5xx (but 503 from an index that is down on
 * purpose), always JSON in the transport's error shape, never anything of a repository the
 * caller may not read.
 */
const CODES = new Set<string>(ToolErrorCodeSchema.options);
jest.setTimeout(120_000);

interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request: the path goes out byte for byte as given (no URL normalisation, unlike fetch). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path, headers, agent: false, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path.slice(0, 200)}`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Percent-encodes every byte of the UTF-8 (or raw) form, valid or not. */
const percentBytes = (bytes: Uint8Array) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
/** A path segment as a client might put it in a URL: encoded, raw (where HTTP allows it), double-encoded, or raw bytes. */
const segment = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: text.map((t) => encodeURIComponent((t as string & { toWellFormed(): string }).toWellFormed())) },
    { weight: 2, arbitrary: text.map((t) => t.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent((c as string & { toWellFormed(): string }).toWellFormed()))) },
    { weight: 1, arbitrary: text.map((t) => encodeURIComponent(encodeURIComponent((t as string & { toWellFormed(): string }).toWellFormed()))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }).map(percentBytes) },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2E%2E', '%2f', '%5c', '%00', '%ff%fe', '%c0%ae%c0%ae', '\\', '%', '%zz', '..%2f..%2f', ';x', '#', '?') },
  );
const pathText = fc.oneof(hostilePath, fc.constantFrom('README.md', 'src/index.ts', 'docs/guide.md', 'vault-only-z8/keys.txt', 'space name/file with spaces.txt'));
const ownerRepo = hostileRepository.chain((name) => {
  const [owner = '', repo = ''] = name.split('/', 2);
  return fc.tuple(segment(fc.constant(owner)), segment(fc.constant(repo)));
});
const filePath = fc.oneof(
  segment(pathText),
  fc.array(segment(pathText), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/')),
);
const queryValue = fc.oneof(
  hostilePath,
  hostileRef,
  hostileRepository,
  fc.constantFrom('1', '0', '-1', '400', '1e3', '9'.repeat(40), 'NaN', ''),
  wrongType.map((v) => {
    try {
      return String(v);
    } catch {
      return '[object]';
    }
  }),
);
const queryKey = fc.constantFrom(
  'ref',
  'start_line',
  'end_line',
  'depth',
  'limit',
  'cursor',
  'folder',
  'q',
  'repository',
  'repositories',
  '_',
  '_cache',
  'path',
  '__proto__',
  'constructor',
  'a[b]',
  'x',
  '',
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
  .chain((pairs) =>
    fc
      .constantFrom('&', ';')
      .map((sep) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed())}`).join(sep)}`)),
  );
const anyRoute = fc.oneof(
  fc.tuple(ownerRepo, query).map(([[o, r], q]) => `/v1/repositories/${o}/${r}${q}`),
  fc.tuple(ownerRepo, query).map(([[o, r], q]) => `/v1/repositories/${o}/${r}/tree${q}`),
  fc.tuple(ownerRepo, filePath, query).map(([[o, r], p, q]) => `/v1/repositories/${o}/${r}/tree/${p}${q}`),
  fc.tuple(ownerRepo, filePath, query).map(([[o, r], p, q]) => `/v1/repositories/${o}/${r}/files/${p}${q}`),
  fc.tuple(ownerRepo, query).map(([[o, r], q]) => `/v1/repositories/${o}/${r}/suggest${q}`),
  query.map((q) => `/v1/repositories${q}`),
  fc.tuple(fc.array(segment(fc.string({ maxLength: 12 })), { maxLength: 6 }), query).map(([parts, q]) => `/v1/${parts.join('/')}${q}`),
  fc.constantFrom(
    '/v1',
    '/v1/',
    '/v1/openapi.json',
    '/v1/repositories/',
    '/v1//repositories',
    '/v1/repositories/acme',
    '/v1/repositories/acme/tools/files/',
    '/v1/repositories/acme/tools/files',
    '/v1/repositories/acme/tools/tree/',
    '/v1/%2e%2e/healthz',
    '/v1/repositories/acme/tools/files/..%2f..%2f..%2fetc%2fpasswd',
    '/v1/repositories/hidden-org/vault-q7/files/README.md',
    '/v1/repositories/acme/tools/files/src/index.ts%00.png',
  ),
);
/** Routes up to 8 KiB (a cut may split a %-escape: one more malformed case), and now and then one past Node's 16 KiB header limit. */
const route = fc.oneof({ weight: 30, arbitrary: anyRoute.map((p) => p.slice(0, 8192)) }, { weight: 1, arbitrary: anyRoute.map((p) => `${p}${p.includes('?') ? '&' : '?'}_pad=${'x'.repeat(17_000)}`) });
const CALLERS: Caller[] = ['anonymous', 'publicToken', 'acmeToken', 'vaultToken'];
const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CALLERS).map((caller) => ({ caller, header: caller === 'anonymous' ? undefined : `Bearer ${TOKENS[caller]}` })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
        fc.constantFrom('Bearer', 'Bearer ', 'Basic Og==', `Bearer ${TOKENS.acmeToken}x`, `Bearer ${TOKENS.acmeToken.toUpperCase()}`, `Token ${TOKENS.adminToken}`, 'Bearer '.repeat(100)),
      )
      .map((header) => ({ caller: 'wrong' as const, header })),
  },
);
/** An Origin header in one request of five (a browser page); null: none, as agents and CLIs send. */
const origin = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('http://localhost:3000', 'null', 'https://evil.example.com', 'https://ide.example.com', 'http://127.0.0.1', 'file://', ''), fc.webUrl()) },
);

function requestText(path: string): string {
  try {
    return decodeURIComponent(decodeURIComponent(path));
  } catch {
    try {
      return decodeURIComponent(path);
    } catch {
      return path;
    }
  }
}

let world: SecurityWorld;
let server: Served;
beforeAll(async () => {
  world = await createSecurityWorld();
  server = await serve(depsFor(world), { allowedHosts: allowedHostsFor('127.0.0.1', []), allowedOrigins: ['https://ide.example.com'] });
});
afterAll(() => server.close());

/**
 * An answer of the reader's own (JSON in the transport's shape), or Node's bare 400 / 431 for a
 * request its HTTP parser refused before the application saw it (e.g. a URL over 16 KiB).
 */
function checkHttp(answer: Answer, transport: 'rest' | 'mcp'): unknown {
  expect({ status: answer.status, server: answer.status >= 500 }).toEqual({ status: answer.status, server: false });
  if ((answer.status === 400 || answer.status === 431) && answer.contentType === '' && answer.body === '') return null;
  if (transport === 'mcp' && answer.status === 202) return null;
  expect(answer.contentType).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, any>;
  if (answer.status >= 400) {
    if (transport === 'rest') {
      expect(typeof body.error?.code).toBe('string');
      expect(typeof body.error?.message).toBe('string');
      expect(body.error.code).not.toBe('INTERNAL');
    } else {
      expect(body.jsonrpc).toBe('2.0');
      expect(typeof body.error?.code).toBe('number');
    }
  }
  return body;
}

describe('REST /v1', () => {
  test('any route, path, query, token and Origin: a JSON answer below 500, never another repository', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(route, authorization, origin, async (path, auth, originHeader) => {
        const headers: Record<string, string> = { ...(auth.header !== undefined ? { authorization: auth.header } : {}), ...(originHeader !== null ? { origin: originHeader } : {}) };
        const answer = await send(server.url, 'GET', path, headers);
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        checkHttp(answer, 'rest');
        // A wrong token is refused (the OpenAPI document is public), never read as anonymous.
        if (auth.caller === 'wrong' && auth.header.trim() !== '' && !/^\/v1\/openapi\.json(\?|$)/.test(path)) expect([401, 403, 400, 429, 431]).toContain(answer.status);
        else expect(leaks(answer.body, `${requestText(path)} ${path}`, auth.caller === 'wrong' ? 'anonymous' : auth.caller)).toEqual([]);
      }),
      { numRuns: runs(400) },
    );
    if (process.env.GITDEX_FUZZ_TALLY) console.log('REST statuses', JSON.stringify(Object.fromEntries(seen)));
    // Many requests get through the guards into the tools.
    expect((seen.get(200) ?? 0) + (seen.get(404) ?? 0)).toBeGreaterThan(runs(400) / 4);
  });

  test('methods other than GET, odd headers and bodies on /v1: answered in JSON, below 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET'),
        route,
        fc.uint8Array({ maxLength: 2000 }),
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
        async (method, path, body, contentType) => {
          const answer = await send(server.url, method, path, { 'content-type': contentType, 'content-length': String(body.length) }, Buffer.from(body));
          expect(answer.status).toBeLessThan(500);
          if (method !== 'HEAD' && answer.status !== 204) checkHttp(answer, 'rest');
        },
      ),
      { numRuns: runs(150) },
    );
  });

  test('Host headers that are not this machine are refused (403) before anything is read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.domain(), fc.constantFrom('evil.example.com', 'localhost.evil.test', '127.0.0.1.nip.io', '0.0.0.0', '[::]', '127.1', '2130706433', 'LOCALHOST.', 'localhost:99999')),
        anyRoute.map((p) => p.slice(0, 8192)),
        async (host, path) => {
          const answer = await send(server.url, 'GET', path, { host });
          const local = ['localhost', 'localhost.', '127.0.0.1', '[::1]'].includes(host.toLowerCase().replace(/:\d{1,5}$/, ''));
          if (!local) expect({ host, status: answer.status }).toEqual({ host, status: 403 });
          checkHttp(answer, 'rest');
        },
      ),
      { numRuns: runs(100) },
    );
  });
});

describe('MCP over HTTP', () => {
  const post = (body: Buffer | string, headers: Record<string, string> = {}) => send(server.url, 'POST', '/mcp', { ...JSON_RPC_HEADERS, ...headers }, body);

  test('tools/call with hostile arguments: a JSON-RPC answer below 500, an isError result with a known code, never another repository', async () => {
    const call = fc
      .constantFrom('read_file', 'list_files', 'repository_overview', 'repositories_state', 'suggest_paths')
      .chain((tool) => fc.tuple(fc.constant(tool), fc.oneof(toolArguments(tool), toolArguments(tool, 'malformed'))));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLERS), call, async (caller, [tool, args]) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool, arguments: args } });
        const answer = await post(body, caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` });
        const parsed = checkHttp(answer, 'mcp') as { result?: { isError?: boolean; _meta?: Record<string, { code: string }> }; error?: { code: number; message: string } };
        expect(answer.status).toBe(200);
        if (parsed.result?.isError) {
          const code = parsed.result._meta?.['gitdex/error']?.code ?? '';
          expect(CODES.has(code)).toBe(true);
          expect(code).not.toBe('INTERNAL');
        } else if (parsed.error) {
          // The SDK's own refusal of params that fail its request schema (non-object arguments).
          expect(parsed.error.message).toMatch(/invalid_type|Invalid/);
        }
        expect(leaks(answer.body, body, caller)).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  test('any JSON-RPC envelope, method and params: answered below 500 in JSON (202 for notifications)', async () => {
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), wrongType),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), wrongType),
        method: fc.oneof(
          fc.constantFrom(
            'initialize',
            'tools/list',
            'tools/call',
            'resources/read',
            'resources/templates/list',
            'resources/list',
            'prompts/list',
            'prompts/get',
            'completion/complete',
            'ping',
            'logging/setLevel',
            'notifications/initialized',
            'notifications/cancelled',
            'sampling/createMessage',
            'rpc.discover',
            '__proto__',
          ),
          fc.string({ maxLength: 30 }),
          wrongType,
        ),
        params: fc.oneof(
          fc.jsonValue({ maxDepth: 5 }),
          fc.record(
            {
              name: fc.oneof(fc.string(), wrongType),
              uri: fc.oneof(fc.string(), wrongType),
              arguments: wrongType,
              ref: wrongType,
              argument: wrongType,
              protocolVersion: fc.oneof(fc.string(), wrongType),
              capabilities: wrongType,
              clientInfo: wrongType,
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(envelope, fc.array(envelope, { maxLength: 4 }), fc.jsonValue({ maxDepth: 4 })), async (message) => {
        const answer = await post(JSON.stringify(message));
        expect(answer.status).toBeLessThan(500);
        checkHttp(answer, 'mcp');
        expect(leaks(answer.body, JSON.stringify(message), 'anonymous')).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  test('bodies that are not JSON, invalid UTF-8 and wrong headers: 4xx with a JSON-RPC error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 4000 }).map((b) => Buffer.from(b)),
          fc.string({ unit: 'binary', maxLength: 500 }).map((s) => Buffer.from(s, 'utf8')),
          fc.constantFrom(
            Buffer.from([0xff, 0xfe, 0x7b]),
            Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"\xc3\x28"}}', 'latin1'),
            Buffer.from('{"a":1}{"b":2}'),
            Buffer.from(''),
            Buffer.from('\ufeff{}'),
          ),
        ),
        fc.record(
          {
            'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'text/plain', 'application/jsonx', ''),
            accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/html', '*/*', ''),
            'mcp-protocol-version': fc.constantFrom('2025-06-18', '2024-11-05', '1999-01-01', 'x', ''),
          },
          { requiredKeys: [] },
        ),
        async (body, headers) => {
          const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
          const answer = await send(server.url, 'POST', '/mcp', { ...clean, 'content-length': String(body.length) }, body);
          expect(answer.status).toBeLessThan(500);
          checkHttp(answer, 'mcp');
        },
      ),
      { numRuns: runs(200) },
    );
  });

  test('10,000 levels of nesting and huge arrays in a JSON-RPC body: answered below 500 in bounded time', async () => {
    // Built as text: JSON.stringify itself overflows the stack on such values.
    const arrays = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
    const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const call = (tool: string, args: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;
    const bodies = [
      arrays(10_000),
      objects(10_000),
      call('read_file', `{"repository":${objects(10_000)},"path":"README.md"}`),
      call('read_file', `{"repository":"acme/tools","path":"README.md","start_line":${arrays(10_000)}}`),
      call('list_files', `{"repository":"acme/tools","cursor":${arrays(10_000)}}`),
      call('list_files', `{"repository":"acme/tools","limit":${objects(10_000)}}`),
      call('suggest_paths', `{"repository":"acme/tools","query":"x","x":${objects(10_000)}}`),
      call('repositories_state', `{"repositories":[${arrays(10_000)}]}`),
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${objects(10_000)}}`,
      `{"jsonrpc":"2.0","id":${arrays(5_000)},"method":"tools/list"}`,
      `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":${arrays(10_000)}}}`,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'repositories_state', arguments: { repositories: Array.from({ length: 50_000 }, (_, i) => `o/r${i}`) } } }),
      JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${Array.from({ length: 40_000 }, (_, i) => `"k${i}":${i}`).join(',')}}}`,
      '['.repeat(400_000) + ']'.repeat(400_000),
    ];
    // Each body is answered (a server stuck on one fails the test by its timeout); how fast is the bench's to measure.
    for (const body of bodies) {
      const answer = await post(body);
      expect({ body: body.slice(0, 120), status: answer.status < 500 }).toEqual({ body: body.slice(0, 120), status: true });
      const parsed = checkHttp(answer, 'mcp') as { result?: { _meta?: Record<string, { code: string }> } } | null;
      const code = parsed?.result?._meta?.['gitdex/error']?.code;
      if (code === 'INTERNAL') expect({ body: body.slice(0, 120), known: knownDeepNumberIssue(body) }).toEqual({ body: body.slice(0, 120), known: true });
    }
  });
});

describe('compressed and slow bodies on /mcp (issue 40)', () => {
  const message = fc.oneof(
    fc
      .constantFrom('read_file', 'list_files', 'suggest_paths')
      .chain((tool) => toolArguments(tool).map((args) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }))),
    fc.constant({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  );

  test('any Content-Encoding but identity: 415 with a JSON-RPC error before a byte is read', async () => {
    const budget = new BodyBudget({ maxBytes: 32 * 1024 * 1024, maxBytesPerAddress: 4 * 1024 * 1024 });
    const watched = await serve(depsFor(world), { body: { budget } });
    try {
      const encoded = fc.tuple(message, fc.constantFrom('gzip', 'deflate', 'br', 'x-gzip', 'GZIP', 'gzip, identity', 'identity, gzip', 'zstd', 'compress')).map(([m, encoding]) => {
        const raw = Buffer.from(JSON.stringify(m));
        const bytes = encoding.includes('deflate') ? zlib.deflateSync(raw) : encoding === 'br' ? zlib.brotliCompressSync(raw) : zlib.gzipSync(raw);
        return { bytes, encoding };
      });
      await fc.assert(
        fc.asyncProperty(encoded, fc.constantFrom(...CALLERS), async ({ bytes, encoding }, caller) => {
          const auth: Record<string, string> = caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` };
          const answer = await send(watched.url, 'POST', '/mcp', { ...JSON_RPC_HEADERS, ...auth, 'content-encoding': encoding, 'content-length': String(bytes.length) }, bytes);
          expect(answer.status).toBe(415);
          expect(checkHttp(answer, 'mcp')).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
        }),
        { numRuns: runs(100) },
      );
      expect(budget.peak).toBe(0);
    } finally {
      await watched.close();
    }
  });

  test('bodies sent in pieces with pauses: the answer a whole body gets, or 408 once too slow; never a 5xx, every byte given back', async () => {
    const budget = new BodyBudget({ maxBytes: 32 * 1024 * 1024, maxBytesPerAddress: 4 * 1024 * 1024 });
    const hurried = await serve(depsFor(world), { body: { budget, timeoutMs: 400, minBytesPerSecond: 2_000, graceMs: 150 } });
    const tally = new Map<number, number>();
    try {
      // A sender at speed (pieces of hundreds of bytes or more, any pauses), or a trickle (a few bytes every 60–150 ms).
      const plan = fc.oneof(
        { weight: 3, arbitrary: fc.array(fc.tuple(fc.integer({ min: 100, max: 4000 }), fc.integer({ min: 0, max: 150 })), { minLength: 1, maxLength: 8 }) },
        { weight: 1, arbitrary: fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 60, max: 150 })), { minLength: 4, maxLength: 8 }) },
      );
      // Padded so that a trickle has something to trickle.
      const padded = message.map((m) => Buffer.from(JSON.stringify({ ...m, params: { ...(m.params ?? {}), _meta: { pad: ' '.repeat(600) } } })));
      await fc.assert(
        fc.asyncProperty(padded, fc.boolean(), plan, async (body, chunked, pieces) => {
          const call = slowRequest(new URL(`${hurried.url}/mcp`), { headers: { ...JSON_RPC_HEADERS, ...(chunked ? {} : { 'content-length': String(body.length) }) } });
          let sent = 0;
          for (const [bytes, pause] of pieces) {
            if (sent >= body.length) break;
            call.write(body.subarray(sent, sent + bytes));
            sent += bytes;
            await new Promise((resolve) => setTimeout(resolve, pause));
          }
          call.end(body.subarray(sent));
          const answer = await call.answer;
          tally.set(answer.status, (tally.get(answer.status) ?? 0) + 1);
          expect(answer.status).toBeLessThan(500);
          expect(answer.body.jsonrpc).toBe('2.0');
          if (answer.status === 408) expect(answer.body.error.message).toMatch(/slower than|did not arrive within/);
        }),
        { numRuns: runs(40) },
      );
      if (process.env.GITDEX_FUZZ_TALLY) console.log('slow /mcp statuses', JSON.stringify(Object.fromEntries(tally)));
      expect(tally.get(408) ?? 0).toBeGreaterThan(0);
      expect(tally.get(200) ?? 0).toBeGreaterThan(0);
      for (let i = 0; i < 100 && budget.inFlight > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(budget.inFlight).toBe(0);
    } finally {
      await hurried.close();
    }
  });
});

/** The reported contracts `got` issue (see fuzz-tools.test.ts): a deeply nested number argument answers INTERNAL. */
function knownDeepNumberIssue(body: string): boolean {
  return /"(start_line|end_line|depth|limit)":(\[{100}|(\{"a":){100})/.test(body);
}

describe('with the index down on purpose', () => {
  test('tool routes answer 503 with Retry-After (REST) or an UNAVAILABLE result (MCP); nothing else breaks', async () => {
    const down = await serve(depsFor({ ...world, index: faulty(world.index, 'unavailable') }));
    try {
      await fc.assert(
        fc.asyncProperty(route, async (path) => {
          const answer = await send(down.url, 'GET', path, {});
          if (answer.status === 503) expect(answer.headers['retry-after']).toBe('5');
          else expect(answer.status).toBeLessThan(500);
          checkHttp({ ...answer, status: answer.status === 503 ? 400 : answer.status }, 'rest');
        }),
        { numRuns: runs(100) },
      );
      const tool = await send(
        down.url,
        'POST',
        '/mcp',
        JSON_RPC_HEADERS,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { repository: 'acme/tools', path: 'README.md' } } }),
      );
      expect(tool.status).toBe(200);
      expect(JSON.parse(tool.body)).toMatchObject({ result: { isError: true, _meta: { 'gitdex/error': { code: 'UNAVAILABLE' } } } });
    } finally {
      await down.close();
    }
  });
});
