// The reader's fuzzing on a real Elasticsearch: the same security world as the unit fuzzers
// (services/reader/test/security), indexed in Elasticsearch, read through the MCP SDK client and
// over HTTP with hostile input. What only this engine can get wrong is how input reaches its
// queries (wildcards, query-string syntax, long terms, Unicode): every answer must still be
// well formed, never INTERNAL or a 5xx, and never hold anything of a private repository the
// caller may not read.
import http from 'node:http';
import fc from 'fast-check';
import { ToolErrorCodeSchema, TOOL_NAMES } from '@gitdex/contracts';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { connectInMemory, textOf, type ToolResult } from '../../services/reader/test/support/mcp-client';
import { hostilePath, hostileRepository, runs, toolArguments } from '../../services/reader/test/security/arbitraries';
import { depsFor, serve, type Served } from '../../services/reader/test/security/helpers';
import { createSecurityWorld, leaks, PRINCIPALS, TOKENS, unreadablePrivate, type Caller, type SecurityWorld } from '../../services/reader/test/security/world';
import { engineEndpoints, uniqueName } from '../harness/engines';

jest.setTimeout(300_000);

const CODES = new Set<string>(ToolErrorCodeSchema.options);
const CALLERS: Caller[] = ['anonymous', 'publicToken', 'acmeToken', 'vaultToken'];
const prefix = uniqueName('fuzz').replace(/-/g, '');
let index: ElasticsearchIndexStore;
let world: SecurityWorld;
let server: Served;

beforeAll(async () => {
  index = new ElasticsearchIndexStore({ node: engineEndpoints().elasticsearchUrl, indexPrefix: prefix });
  world = await createSecurityWorld(index);
  server = await serve(depsFor(world));
});
afterAll(async () => {
  await server?.close();
  await index?.close();
  await fetch(`${engineEndpoints().elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
});

test('the world is indexed in Elasticsearch and readable as it should be', async () => {
  const anonymous = await connectInMemory(depsFor(world), null);
  const vault = await connectInMemory(depsFor(world), PRINCIPALS.vaultToken);
  expect(textOf((await anonymous.client.callTool({ name: 'read_file', arguments: { repository: 'acme/tools', path: 'src/server/http.ts', start_line: 2, end_line: 2 } })) as ToolResult)).toContain(
    '// http 2',
  );
  expect(textOf((await vault.client.callTool({ name: 'read_file', arguments: { repository: 'hidden-org/vault-q7', path: 'docs/plan-zz9.md' } })) as ToolResult)).toContain('CANARY-vault');
  expect(((await anonymous.client.callTool({ name: 'read_file', arguments: { repository: 'hidden-org/vault-q7', path: 'docs/plan-zz9.md' } })) as ToolResult).isError).toBe(true);
  await anonymous.close();
  await vault.close();
});

function check(result: ToolResult, request: string, caller: Caller): void {
  if (result.isError) {
    const code = (result._meta?.['gitdex/error'] as { code?: string } | undefined)?.code ?? '';
    expect(CODES.has(code)).toBe(true);
    expect({ code, text: code === 'INTERNAL' ? textOf(result) : '' }).toEqual({ code: expect.not.stringMatching(/^(INTERNAL|UNAVAILABLE)$/), text: '' });
  }
  expect(leaks(JSON.stringify(result), request, caller)).toEqual([]);
}

describe.each(TOOL_NAMES)('%s on Elasticsearch', (tool) => {
  test('hostile values: a well-formed answer, never INTERNAL, never another repository', async () => {
    const clients = new Map(await Promise.all(CALLERS.map(async (caller) => [caller, await connectInMemory(depsFor(world), PRINCIPALS[caller])] as const)));
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...CALLERS), toolArguments(tool), async (caller, args) => {
          const result = (await clients.get(caller)!.client.callTool({ name: tool, arguments: args })) as ToolResult;
          check(result, JSON.stringify(args), caller);
          const queued = world.publisher.events.map((e) => e.repository.fullName.toLowerCase());
          for (const name of unreadablePrivate(caller)) expect(queued).not.toContain(name);
          world.publisher.events.length = 0;
        }),
        { numRuns: runs(120) },
      );
    } finally {
      for (const { close } of clients.values()) await close();
    }
  });
});

test('suggest_paths with query syntax of every kind: answered from the index, never an Elasticsearch error', async () => {
  const { client, close } = await connectInMemory(depsFor(world), null);
  const syntax = fc.oneof(
    fc.constantFrom(
      '*',
      '?',
      '**/*',
      'src/*',
      'a AND b',
      'a OR b',
      'NOT x',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '"',
      '\\',
      '/',
      '~',
      '^',
      ':',
      '!',
      '+',
      '-',
      '&&',
      '||',
      '<',
      '>',
      '=',
      'path:*',
      '_id:1',
      'name:README.md',
      '/.*/',
      '#',
      '@',
      '\u0000',
      '\u{10FFFF}',
      'ÿ'.repeat(1000),
      '😀'.repeat(500),
      'a'.repeat(1000),
      'é'.normalize('NFD').repeat(300),
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 120 }),
    fc.array(fc.constantFrom('*', '?', ':', '"', '(', ')', '\\', '/', '~', 'src', 'READ', 'ME', ' ', '.'), { minLength: 1, maxLength: 30 }).map((parts) => parts.join('')),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('acme/tools', 'octo/web'), syntax, async (repository, query) => {
      const result = (await client.callTool({ name: 'suggest_paths', arguments: { repository, query } })) as ToolResult;
      check(result, query, 'anonymous');
    }),
    { numRuns: runs(200) },
  );
  await close();
});

test('REST over HTTP on Elasticsearch: any route below 500, never another repository', async () => {
  const { hostname, port } = new URL(server.url);
  const send = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ hostname, port, path, headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  const encode = (text: string) => encodeURIComponent((text as string & { toWellFormed(): string }).toWellFormed());
  const route = fc.tuple(hostileRepository, hostilePath, fc.constantFrom('', '/tree', '/files', '/suggest', '/tree')).map(([repository, path, kind]) => {
    const [owner = '', repo = ''] = repository.split('/', 2);
    const base = `/v1/repositories/${encode(owner)}/${encode(repo)}`;
    if (kind === '/files' || kind === '/tree') return `${base}${kind}/${path.split('/').map(encode).join('/')}`.slice(0, 8000);
    if (kind === '/suggest') return `${base}/suggest?q=${encode(path)}`.slice(0, 8000);
    return base;
  });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...CALLERS), route, async (caller, path) => {
      const answer = await send(path, caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` });
      expect({ path, status: answer.status < 500 }).toEqual({ path, status: true });
      const body = JSON.parse(answer.body) as { error?: { code: string } };
      expect(body.error?.code).not.toBe('INTERNAL');
      let asked = path;
      try {
        asked = decodeURIComponent(path);
      } catch {
        // the raw path is what was asked
      }
      expect(leaks(answer.body, asked, caller)).toEqual([]);
    }),
    { numRuns: runs(300) },
  );
});
