import fc from 'fast-check';
import { isRepositoryName, parsePublishedSites, TOOL_NAMES, ToolErrorCodeSchema } from '@gitdex/contracts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory, textOf, type ToolResult } from '../support/mcp-client';
import { deeplyNested, hostilePath, hostileRepository, runs, toolArguments, wrongType } from './arbitraries';
import { depsFor, scrub, toTwin } from './helpers';
import { ACME_PRIVATE, createSecurityWorld, PUBLISHED_SITES, leaks, mayRead, PRINCIPALS, UNINDEXED_PRIVATE, unreadablePrivate, VAULT, type Caller, type SecurityWorld } from './world';

/**
 * Every tool, through the MCP SDK client, with random and adversarial arguments, for callers
 * with and without access to the private repositories. Properties: the call always answers (a
 * result the client accepts against the output schema, or an isError result with a known code
 * that is never INTERNAL); nothing of a repository the caller may not read appears, nor is it
 * queued for indexing; and a private repository answers exactly like a repository that does
 * not exist.
 */
const CODES = new Set<string>(ToolErrorCodeSchema.options);

/**
 * The MCP SDK answers a request whose params fail its own request schema (a resource URI that
 * is not a URL, tool arguments that are not an object) with JSON-RPC -32603 and the schema's
 * complaint, before any gitdex code runs. Well-formed, but the code says "internal": accepted
 * here as a known SDK behaviour (docs/security.md), and told apart from gitdex's own internal
 * errors, which never pass.
 */
function sdkSchemaRefusal(error: { code?: number | undefined; message?: string | undefined }): boolean {
  return error.code === -32603 && !/Internal error in/.test(String(error.message)) && /Invalid URL|"code": "invalid_type"/.test(String(error.message));
}
const CALLERS: Caller[] = ['anonymous', 'publicToken', 'acmeToken', 'vaultToken'];
const PRIVATE_NAMES = [ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE];

let world: SecurityWorld;
const clients = new Map<Caller, { client: Client; close: () => Promise<void> }>();

/** Names the reader asked GitHub about: each must be a name GitHub allows (a request path is built from it). */
const lookedUp: string[] = [];

beforeAll(async () => {
  world = await createSecurityWorld();
  const { sites } = parsePublishedSites(PUBLISHED_SITES);
  // Anyone's unseen names are looked up (GitHub has none of them), without limits that would change answers between a name and its twin.
  const unseen = { lookup: async (name: string) => (lookedUp.push(name), null), queueUnseen: 'anonymous' as const, unseenLookupsPerMinute: 1e9, anonymousLookupsPerDay: 1e9 };
  for (const caller of CALLERS) clients.set(caller, await connectInMemory(depsFor(world, { sites, ...unseen }), PRINCIPALS[caller]));
});
afterAll(async () => {
  for (const { close } of clients.values()) await close();
});

/** The answer as the client sees it, or what went wrong (a rejected call is a failure of the property). */
async function callTool(client: Client, name: string, args: unknown): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args as Record<string, unknown> })) as ToolResult;
}

/** Outcomes by tool: the fuzzing must get past argument checks into the tools, not only bounce off the schema. */
const tally = new Map<string, Map<string, number>>();
function count(tool: string, result: ToolResult): void {
  const outcome = result.isError ? ((result._meta?.['gitdex/error'] as { code?: string } | undefined)?.code ?? '?') : 'ok';
  const byCode = tally.get(tool) ?? new Map<string, number>();
  byCode.set(outcome, (byCode.get(outcome) ?? 0) + 1);
  tally.set(tool, byCode);
}

function checkAnswer(result: ToolResult, request: unknown, caller: Caller): void {
  const text = textOf(result);
  expect(text.length).toBeGreaterThan(0);
  if (result.isError) {
    const code = (result._meta?.['gitdex/error'] as { code?: string } | undefined)?.code ?? '';
    expect(CODES.has(code)).toBe(true);
    expect({ code, text: code === 'INTERNAL' ? text : '' }).toEqual({ code: expect.not.stringMatching(/^INTERNAL$/), text: '' });
  } else expect(result.structuredContent).toBeDefined();
  expect(leaks(JSON.stringify(result), askedText(request), caller)).toEqual([]);
}

function checkQueue(caller: Caller): void {
  const queued = world.publisher.events.map((e) => e.repository.fullName.toLowerCase());
  for (const name of unreadablePrivate(caller)) expect(queued).not.toContain(name);
  world.publisher.events.length = 0;
  expect(lookedUp.filter((name) => !isRepositoryName(name))).toEqual([]);
  lookedUp.length = 0;
}

/** encodeURIComponent, with lone surrogates made well-formed first (it throws on them). */
export function encode(text: string): string {
  return encodeURIComponent((text as string & { toWellFormed(): string }).toWellFormed());
}

/**
 * What the caller put in the request, cursors decoded: a forged cursor may name a private folder,
 * and an answer that names it back tells the caller only what it wrote itself.
 */
function askedText(request: unknown): string {
  const cursor = (request as { cursor?: unknown } | null)?.cursor;
  return safeJson(request) + (typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

describe.each(TOOL_NAMES)('%s', (tool) => {
  test('malformed arguments (wrong types, unknown and polluting keys, missing ones): refused with what to fix, never INTERNAL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLERS), toolArguments(tool, 'malformed'), async (caller, args) => {
        const result = await callTool(clients.get(caller)!.client, tool, args);
        checkAnswer(result, args, caller);
        checkQueue(caller);
      }),
      { numRuns: runs(100) },
    );
  });

  test('hostile values of the right types: always a well-formed answer, never INTERNAL, never another repository', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLERS), toolArguments(tool), async (caller, args) => {
        const result = await callTool(clients.get(caller)!.client, tool, args);
        count(tool, result);
        if (process.env.GITDEX_FUZZ_TALLY && result.isError) console.log('E', tool, textOf(result).slice(0, 160));
        checkAnswer(result, args, caller);
        checkQueue(caller);
      }),
      { numRuns: runs(200) },
    );
    // At least a third of the calls get past the argument checks (an answer, or an error found in the index).
    const byCode = tally.get(tool)!;
    const total = [...byCode.values()].reduce((a, b) => a + b, 0);
    const reached = total - (byCode.get('INVALID_ARGUMENT') ?? 0);
    if (process.env.GITDEX_FUZZ_TALLY) console.log(tool, JSON.stringify(Object.fromEntries(byCode)));
    expect(reached / total).toBeGreaterThan(1 / 3);
  });

  test('a private repository it may not read answers exactly like one that does not exist', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLERS), fc.constantFrom(...PRIVATE_NAMES), toolArguments(tool), fc.constantFrom('as is', 'upper', 'url'), async (caller, name, args, form) => {
        fc.pre(!mayRead(caller, name));
        const shown = form === 'upper' ? name.toUpperCase() : form === 'url' ? `https://github.com/${name}` : name;
        const withName = tool === 'repositories_state' ? { ...args, repositories: [shown] } : { ...args, repository: shown };
        const withTwin = JSON.parse(toTwin(JSON.stringify(withName), name)) as Record<string, unknown>;
        // Fresh servers: neither call may see what the other one queued.
        const first = await connectInMemory(depsFor(world), PRINCIPALS[caller]);
        const second = await connectInMemory(depsFor(world), PRINCIPALS[caller]);
        const real = await callTool(first.client, tool, withName);
        const ghost = await callTool(second.client, tool, withTwin);
        await first.close();
        await second.close();
        expect(scrub(JSON.stringify(real), name)).toBe(scrub(JSON.stringify(ghost), name));
        checkAnswer(real, withName, caller);
        checkQueue(caller);
      }),
      { numRuns: runs(100) },
    );
  });

  test('10,000 levels of nesting, 100,000-element arrays and a megabyte of text in any argument: refused as invalid arguments', async () => {
    const { client } = clients.get('anonymous')!;
    const keys = tool === 'repositories_state' ? ['repositories', 'other'] : ['repository', 'path', 'query', 'folder', 'ref', 'start_line', 'limit', 'cursor', 'other'];
    const outcomes: { key: string; shape: string; code: string | undefined; chars: number }[] = [];
    for (const key of keys) {
      for (const [shape, value] of HUGE_VALUES) {
        const args: Record<string, unknown> =
          tool === 'repositories_state' ? {} : { repository: 'acme/tools', ...(tool === 'read_file' ? { path: 'README.md' } : {}), ...(tool === 'suggest_paths' ? { query: 'x' } : {}) };
        args[key] = value;
        const result = await callTool(client, tool, args);
        outcomes.push({ key, shape, code: (result._meta?.['gitdex/error'] as { code: string } | undefined)?.code, chars: textOf(result).length });
      }
    }
    const unexpected = outcomes.filter((o) => o.code !== 'INVALID_ARGUMENT');
    expect(unexpected).toEqual([]);
    expect(outcomes.every((o) => o.chars < 5_000)).toBe(true);
  });
});

const HUGE_VALUES: [string, unknown][] = [
  ['nested arrays', deeplyNested(10_000, 'array')],
  ['nested objects', deeplyNested(10_000, 'object')],
  ['huge array', Array.from({ length: 100_000 }, (_, i) => `o/r${i}`)],
  ['huge string', 'x'.repeat(1_000_000)],
];

test('a deeply nested start_line is refused as INVALID_ARGUMENT', async () => {
  const result = await callTool(clients.get('anonymous')!.client, 'read_file', { repository: 'acme/tools', path: 'README.md', start_line: deeplyNested(10_000, 'array') });
  expect((result._meta?.['gitdex/error'] as { code: string }).code).toBe('INVALID_ARGUMENT');
});

test('list_files with forged cursors (well-formed, for every repository id, private ones included): refused or paged, never another repository', async () => {
  const forged = fc.record({
    v: fc.constant(1),
    r: fc.integer({ min: 100, max: 106 }),
    ref: fc.constantFrom('refs/heads/main', 'refs/heads/other', 'refs/tags/v1', ''),
    f: fc.constantFrom('', 'src', 'docs', 'vault-only-z8', 'acme-only-k3', '..', 'docs/deep'),
    d: fc.integer({ min: 1, max: 12 }),
    g: fc.oneof(fc.constantFrom(0, 1, 2), fc.nat()),
    c: fc.string({ maxLength: 41 }),
    t: fc.constant(null),
    p: fc.constantFrom('folders', 'files'),
    a: fc.oneof(fc.constantFrom('', 'src', 'vault-only-z8/keys.txt', '\uffff'), hostilePath),
    o: fc.nat(),
    n: fc.nat(),
  });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...CALLERS), fc.constantFrom('acme/tools', 'octo/web', ACME_PRIVATE, VAULT), forged, async (caller, repository, cursor) => {
      const args = { repository, cursor: Buffer.from(JSON.stringify(cursor)).toString('base64url') };
      const result = await callTool(clients.get(caller)!.client, 'list_files', args);
      // The cursor is the caller's own input: a name it carries may be said back (the cursor's folder in an error).
      checkAnswer(result, { repository, cursor }, caller);
    }),
    { numRuns: runs(100) },
  );
});

describe('resources, completions and prompts', () => {
  test('resources/read of any URI: contents or a not-found / invalid-params error, never internal, never another repository', async () => {
    const uri = fc.oneof(
      fc.tuple(hostileRepository, hostilePath).map(([repository, path]) => `gitdex://${repository}/${path}`),
      fc.tuple(hostileRepository, hostilePath).map(([repository, path]) => `gitdex://${encode(repository)}/${encode(path)}`),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.webUrl(),
      fc.constantFrom(
        'gitdex://',
        'gitdex:///',
        'gitdex://acme/tools/',
        'gitdex://acme/tools/%2e%2e/%2e%2e/hidden-org/vault-q7/README.md',
        'gitdex://hidden-org/vault-q7/README.md',
        'gitdex://acme/internal-x9/README.md',
        'gitdex://acme/tools/src/index.ts%00',
        'file:///etc/passwd',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CALLERS), uri, async (caller, value) => {
        const { client } = clients.get(caller)!;
        const outcome = await client.readResource({ uri: value }).then(
          (read) => ({ ok: true as const, text: JSON.stringify(read) }),
          (error: { code?: number; message?: string }) => ({ ok: false as const, code: error.code, text: String(error.message) }),
        );
        if (!outcome.ok && !sdkSchemaRefusal({ code: outcome.code, message: outcome.text })) expect([-32002, -32602]).toContain(outcome.code);
        expect(leaks(outcome.text, value, caller)).toEqual([]);
      }),
      { numRuns: runs(200) },
    );
  });

  test('completion/complete with any argument and context: values of readable repositories only', async () => {
    const reference = fc.oneof(
      fc.constantFrom('explore_repository', 'read_path').map((name) => ({ type: 'ref/prompt' as const, name })),
      fc.constant({ type: 'ref/resource' as const, uri: 'gitdex://{owner}/{repo}/{+path}' }),
      fc.string({ maxLength: 20 }).map((name) => ({ type: 'ref/prompt' as const, name })),
      fc.string({ maxLength: 40 }).map((uri) => ({ type: 'ref/resource' as const, uri })),
    );
    const context = fc.option(
      fc.record(
        {
          owner: fc.oneof(fc.constantFrom('hidden-org', 'acme', 'HIDDEN-ORG'), fc.string({ maxLength: 20 })),
          repo: fc.oneof(fc.constantFrom('vault-q7', 'internal-x9', 'tools'), fc.string({ maxLength: 20 })),
          repository: hostileRepository,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLERS),
        reference,
        fc.constantFrom('repository', 'path', 'owner', 'repo', 'other'),
        fc.oneof(hostilePath, hostileRepository),
        context,
        async (caller, ref, name, value, args) => {
          const { client } = clients.get(caller)!;
          const outcome = await client.complete({ ref, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) }).then(
            (answer) => ({ ok: true as const, values: answer.completion.values, text: JSON.stringify(answer) }),
            (error: { code?: number; message?: string }) => ({ ok: false as const, code: error.code, values: [] as string[], text: String(error.message) }),
          );
          if (!outcome.ok) expect(outcome.code).toBe(-32602);
          for (const repository of unreadablePrivate(caller)) {
            const [, repo] = repository.split('/') as [string, string];
            expect(outcome.values.map((v) => v.toLowerCase())).not.toContain(repository);
            expect(outcome.values.map((v) => v.toLowerCase())).not.toContain(repo);
          }
          expect(leaks(outcome.text, `${value} ${safeJson(args)}`, caller)).toEqual([]);
        },
      ),
      { numRuns: runs(200) },
    );
  });

  test('prompts/get with any arguments: a prompt or an invalid-params error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('explore_repository', 'read_path', 'nope', ''),
        fc.dictionary(fc.constantFrom('repository', 'path', 'x'), fc.oneof(hostilePath, hostileRepository)),
        async (name, args) => {
          const { client } = clients.get('anonymous')!;
          const outcome = await client.getPrompt({ name, arguments: args }).then(
            (prompt) => ({ ok: true as const, text: JSON.stringify(prompt) }),
            (error: { code?: number; message?: string }) => ({ ok: false as const, code: error.code, text: String(error.message) }),
          );
          if (!outcome.ok) expect(outcome.code).toBe(-32602);
          expect(leaks(outcome.text, safeJson(args), 'anonymous')).toEqual([]);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  test('arguments of the wrong shape altogether (not an object) are refused, never crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOL_NAMES), wrongType, async (tool, args) => {
        const { client } = clients.get('anonymous')!;
        const outcome = await client.callTool({ name: tool, arguments: args as Record<string, unknown> }).then(
          (result) => ({ ok: true as const, result: result as ToolResult }),
          (error: { code?: number; message?: string }) => ({ ok: false as const, code: error.code, message: error.message }),
        );
        // The SDK refuses non-object arguments itself; anything else reaches the tool and is an isError result.
        if (outcome.ok) checkAnswer(outcome.result, args, 'anonymous');
        else expect({ code: outcome.code, sdk: sdkSchemaRefusal(outcome) || outcome.code === -32602 }).toEqual({ code: outcome.code, sdk: true });
      }),
      { numRuns: runs(100) },
    );
  });
});
