// A repository gitdex has never seen, queued from a tool, end to end: the whole product in one
// process on its embedded engines (SQLite index, SQLite event log, the indexer), configured from
// the environment as `npm start` does (loadEnv → runGitdex), asking the GitHub stand-in over HTTP,
// and called over MCP (the SDK client on /mcp) with the tokens of GITDEX_READER_TOKENS.
// Nothing is faked: the lookup is Source.repositoryByName against the stand-in, the backfill goes
// through the event log to the indexer, and the file read back is the stand-in's git content.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runGitdex } from '../../services/gitdex/src/run';
import { createRepo, headSha, makeTempRoot, removeTempRoot } from '../github-standin/fixture-repos';
import { createGitHubStandIn } from '../github-standin/server';

const TOKEN_A = 'unseen-token-a-7f3e9c1d2b8a';
const TOKEN_B = 'unseen-token-b-4a8d0e6f1c5e';
const TOKEN_C = 'unseen-token-c-9b2f5a7e3d0c';
const GITHUB_TOKEN = 'ghs_unseenStandInToken0123456789ab';
type Caller = 'A' | 'B' | 'C' | 'anonymous';
const TOKENS: Record<Exclude<Caller, 'anonymous'>, string> = { A: TOKEN_A, B: TOKEN_B, C: TOKEN_C };

const PUBLIC = 'open/widgets';
const PRIVATE = 'vault/ledger';
const PUBLIC_FILE = 'src/widget.ts';
const PUBLIC_TEXT = "export const widget = 'e2e-public-5d1f';\n// second line\n";
const PRIVATE_FILE = 'notes/ledger.md';
const PRIVATE_TEXT = '# Ledger\nCANARY-unseen-private-8c2e\n';
/** The default number of GitHub lookups a caller may make a minute (UNSEEN_LOOKUPS_PER_MINUTE; no variable sets it). */
const LOOKUPS_PER_MINUTE = 10;

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  _meta?: Record<string, unknown>;
}

/**
 * The product as `npm start` runs it (loadEnv → runGitdex, role all, embedded engines) in front of
 * a GitHub stand-in holding a public and a private repository gitdex has never indexed; MCP
 * clients over HTTP for each caller; what the stand-in and the event log saw.
 */
async function startProduct(queueUnseen: 'tokens' | 'anonymous', extraEnv: Record<string, string> = {}) {
  const root = await makeTempRoot('gitdex-unseen-');
  const dataDir = mkdtempSync(join(tmpdir(), 'gitdex-unseen-data-'));
  await createRepo(root, 'open', 'widgets', { 'README.md': '# Widgets\n', [PUBLIC_FILE]: PUBLIC_TEXT });
  await createRepo(root, 'vault', 'ledger', { 'README.md': '# Vault\n', [PRIVATE_FILE]: PRIVATE_TEXT });
  // Every API call needs the token: a private repository is visible only to gitdex's credentials.
  const standIn = await createGitHubStandIn({ root, token: GITHUB_TOKEN, rateLimit: { limit: 1_000_000 } });
  await standIn.setVisibility('vault', 'ledger', true, { deliver: false });
  const env = loadEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    GITDEX_DATA_DIR: join(dataDir, 'data'),
    GITHUB_API_URL: standIn.url,
    GITHUB_TOKEN,
    // A names both repositories (and the rest of open/*); B neither; C only names that GitHub does not have.
    GITDEX_READER_TOKENS: `a:${TOKEN_A}=open/*,vault/ledger; b:${TOKEN_B}=elsewhere/*; c:${TOKEN_C}=nowhere/*`,
    // No periodic reconcile: every event in the log comes from the calls of the test.
    GITDEX_RECONCILE_INTERVAL_SECONDS: '0',
    ...(queueUnseen === 'tokens' ? {} : { GITDEX_QUEUE_UNSEEN: queueUnseen }),
    ...extraEnv,
  });
  expect(env.GITDEX_QUEUE_UNSEEN).toBe(queueUnseen);
  const gitdex = await runGitdex(env, 'all', createLogger({ level: 'silent' }));
  expect(gitdex.adapters.engines).toEqual({ eventLog: 'sqlite', index: 'sqlite' });
  const clients = new Map<Caller, Client>();

  const client = async (caller: Caller): Promise<Client> => {
    const known = clients.get(caller);
    if (known) return known;
    const made = new Client({ name: `unseen-e2e-${caller}`, version: '1.0.0' });
    const headers: Record<string, string> = caller === 'anonymous' ? {} : { authorization: `Bearer ${TOKENS[caller]}` };
    await made.connect(new StreamableHTTPClientTransport(new URL(`${gitdex.url}/mcp`), { requestInit: { headers } }));
    clients.set(caller, made);
    return made;
  };
  const call = async (caller: Caller, name: string, args: Record<string, unknown>): Promise<ToolResult> => (await (await client(caller)).callTool({ name, arguments: args })) as ToolResult;
  const stateOf = async (caller: Caller, repository: string) => {
    const answer = okOf(await call(caller, 'repositories_state', { repositories: [repository] }));
    expect(answer.repositories).toHaveLength(1);
    return answer.repositories[0] as Record<string, any>;
  };

  return {
    root,
    standIn,
    gitdex,
    call,
    readFile: (caller: Caller, repository: string, path: string) => call(caller, 'read_file', { repository, path }),
    stateOf,
    /** GitHub lookups of a repository by name (GET /repos/{owner}/{repo}) the stand-in answered. */
    lookups: (name: string) => standIn.requests.list().filter((r) => r.method === 'GET' && r.path.split('?')[0]!.toLowerCase() === `/repos/${name}`).length,
    /** Every API request the stand-in answered under /repos/{name} (lookups and indexing alike). */
    requestsAbout: (name: string) => standIn.requests.list().filter((r) => r.path.toLowerCase().startsWith(`/repos/${name}`)).length,
    /** Events ever written to the embedded event log (consumed rows are deleted; the AUTOINCREMENT counter stays). */
    published: (): number => {
      const db = new Database(join(dataDir, 'data', 'events.sqlite'), { readonly: true, fileMustExist: true });
      try {
        const hasCounter = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
        if (!hasCounter) return 0;
        const row = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'event_log'").get() as { seq: number } | undefined;
        return row?.seq ?? 0;
      } finally {
        db.close();
      }
    },
    /** Events written to the embedded event log and not consumed yet. */
    pending: (): number => {
      const db = new Database(join(dataDir, 'data', 'events.sqlite'), { readonly: true, fileMustExist: true });
      try {
        return (db.prepare('SELECT COUNT(*) AS n FROM event_log').get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    /**
     * A tool call without a token from another client address (any 127.x.y.z reaches a
     * loopback listener): a plain tools/call POST to /mcp, as a client without the SDK sends it.
     */
    callFrom: (address: string, name: string, args: Record<string, unknown>): Promise<ToolResult> => {
      const { hostname, port } = new URL(gitdex.url);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
      return new Promise((resolve, reject) => {
        const req = httpRequest({ hostname, port, path: '/mcp', method: 'POST', headers, localAddress: address }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              resolve((JSON.parse(text) as { result: ToolResult }).result);
            } catch (error) {
              reject(new Error(`${res.statusCode ?? 0}: ${text.slice(0, 300)}`, { cause: error }));
            }
          });
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    /** Polls the product's index until the default branch of a repository is readable at the stand-in's head. */
    async waitUntilIndexed(name: string, head: string): Promise<void> {
      const deadline = Date.now() + 20_000;
      let seen = 'no repository document';
      while (Date.now() < deadline) {
        const repository = await gitdex.adapters.index.findRepositoryByName(name);
        if (repository) {
          const main = (await gitdex.adapters.index.listRefStates(repository.repositoryId)).find((s) => s.ref === 'refs/heads/main');
          seen = JSON.stringify(main ?? 'no ref state');
          if (main?.commitSha === head) return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${name} was not indexed at ${head}: ${seen}`);
    },
    async close(): Promise<void> {
      for (const made of clients.values()) await made.close().catch(() => undefined);
      await gitdex.close();
      await standIn.close();
      await removeTempRoot(root);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type Product = Awaited<ReturnType<typeof startProduct>>;

const text = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
function errorOf(result: ToolResult): { code: string | undefined; text: string } {
  if (!result.isError) throw new Error(`expected an error, got: ${text(result).slice(0, 500)}`);
  return { code: (result._meta?.['gitdex/error'] as { code?: string } | undefined)?.code, text: text(result) };
}
function okOf(result: ToolResult): Record<string, any> {
  if (result.isError) throw new Error(`expected success, got: ${text(result)}`);
  return result.structuredContent ?? {};
}
/** What a caller is told, with the repository's name replaced: to compare with the answer for another name. */
const anonymised = (value: unknown, name: string) => JSON.stringify(value).split(name).join('NAME');

describe('a repository gitdex has never seen, queued from a tool (single process, embedded engines, GitHub stand-in; GITDEX_QUEUE_UNSEEN=tokens)', () => {
  let p: Product;
  beforeAll(async () => {
    p = await startProduct('tokens');
  });
  afterAll(async () => {
    await p?.close();
  });

  test('B and anonymous: the public one reads "not indexed", the private one exactly like a repository that does not exist; nothing looked up or queued', async () => {
    for (const caller of ['B', 'anonymous'] as const) {
      for (const [name, ghost] of [
        [PUBLIC, 'open/widgetz'],
        [PRIVATE, 'vault/ledgex'],
      ] as const) {
        const read = errorOf(await p.readFile(caller, name, 'README.md'));
        expect(read.code).toBe('REPOSITORY_NOT_FOUND');
        expect(read.text).toContain(`${name} is not indexed`);
        expect(read.text).not.toMatch(/queued|GitHub has it/i);
        expect(anonymised(read, name)).toBe(anonymised(errorOf(await p.readFile(caller, ghost, 'README.md')), ghost));
        const state = await p.stateOf(caller, name);
        expect(state).toMatchObject({ repository: name, indexed: false, status: 'unknown', backfill_queued: false });
        expect(anonymised(state, name)).toBe(anonymised(await p.stateOf(caller, ghost), ghost));
      }
    }
    // Not theirs to have looked up: GitHub was not asked, and the event log holds nothing.
    expect(p.requestsAbout(PUBLIC) + p.requestsAbout(PRIVATE)).toBe(0);
    expect(p.standIn.requests.total).toBe(0);
    expect(p.published()).toBe(0);
  });

  test('A: the public one is looked up and queued, "already queued" while it waits, then readable with the file as GitHub has it', async () => {
    const head = await headSha(join(p.root, 'open', 'widgets'), 'main');
    // The indexer's GitHub calls for it (never the lookup itself) wait, so the second question finds it still queued.
    const id = await p.standIn.repoId('open', 'widgets');
    const slow = [`/repositories/${id}`, `/repos/${PUBLIC}/`].map((route) => p.standIn.faults.add({ type: 'latency', ms: 2000, route }));
    const state = await p.stateOf('A', PUBLIC);
    expect(state).toMatchObject({ repository: PUBLIC, indexed: false, status: 'not_indexed', backfill_queued: true });
    expect(state.message).toMatch(/GitHub has it and it is now queued for indexing/);
    expect(p.lookups(PUBLIC)).toBe(1);
    expect(p.published()).toBe(1);

    const again = errorOf(await p.readFile('A', PUBLIC, PUBLIC_FILE));
    expect(again.code).toBe('NOT_INDEXED');
    expect(again.text).toMatch(/already queued/);
    expect(p.published()).toBe(1);
    for (const fault of slow) p.standIn.faults.remove(fault.id);

    await p.waitUntilIndexed(PUBLIC, head);
    const read = okOf(await p.readFile('A', PUBLIC, PUBLIC_FILE));
    expect(read).toMatchObject({ repository: PUBLIC, path: PUBLIC_FILE, ref: 'refs/heads/main', complete: true, ends_with_newline: true });
    expect(read.freshness.commit).toBe(head);
    expect(`${read.content}\n`).toBe(PUBLIC_TEXT);
    expect(await p.stateOf('A', PUBLIC)).toMatchObject({ indexed: true, status: 'ready', commit: head });
    // Public once indexed: every caller reads it, as any indexed public repository.
    expect(`${okOf(await p.readFile('B', PUBLIC, PUBLIC_FILE)).content}\n`).toBe(PUBLIC_TEXT);
    expect(p.published()).toBe(1);
  });

  test('A: the private one is queued and becomes readable to A only; B and anonymous still get "does not exist"', async () => {
    const head = await headSha(join(p.root, 'vault', 'ledger'), 'main');
    const queued = errorOf(await p.readFile('A', PRIVATE, PRIVATE_FILE));
    expect(queued.code).toBe('NOT_INDEXED');
    expect(queued.text).toMatch(/GitHub has it and it is now queued for indexing/);
    expect(p.lookups(PRIVATE)).toBe(1);
    expect(p.published()).toBe(2);

    await p.waitUntilIndexed(PRIVATE, head);
    const read = okOf(await p.readFile('A', PRIVATE, PRIVATE_FILE));
    expect(read).toMatchObject({ repository: PRIVATE, path: PRIVATE_FILE, complete: true });
    expect(read.freshness.commit).toBe(head);
    expect(`${read.content}\n`).toBe(PRIVATE_TEXT);
    expect(await p.stateOf('A', PRIVATE)).toMatchObject({ indexed: true, status: 'ready', commit: head });

    const asked = p.requestsAbout(PRIVATE);
    for (const caller of ['B', 'anonymous'] as const) {
      const refused = errorOf(await p.readFile(caller, PRIVATE, PRIVATE_FILE));
      expect(refused.code).toBe('REPOSITORY_NOT_FOUND');
      expect(anonymised(refused, PRIVATE)).toBe(anonymised(errorOf(await p.readFile(caller, 'vault/ledgex', PRIVATE_FILE)), 'vault/ledgex'));
      const state = await p.stateOf(caller, PRIVATE);
      expect(anonymised(state, PRIVATE)).toBe(anonymised(await p.stateOf(caller, 'vault/ledgex'), 'vault/ledgex'));
      expect(JSON.stringify([refused, state])).not.toContain('CANARY');
    }
    expect(p.requestsAbout(PRIVATE)).toBe(asked);
    expect(p.published()).toBe(2);
  });

  test('A: a name GitHub does not have is looked up and answers like any unknown repository; nothing is queued', async () => {
    const missing = 'open/missing';
    const read = errorOf(await p.readFile('A', missing, 'README.md'));
    expect(read.code).toBe('REPOSITORY_NOT_FOUND');
    expect(p.lookups(missing)).toBe(1);
    expect(
      p.standIn.requests
        .list()
        .filter((r) => r.path === `/repos/${missing}`)
        .map((r) => r.status),
    ).toEqual([404]);
    // Word for word what B (who may not have it looked up) is told: the lookup hints nothing.
    expect(read.text).toBe(errorOf(await p.readFile('B', missing, 'README.md')).text);
    expect(await p.stateOf('A', missing)).toMatchObject({ repository: missing, indexed: false, status: 'unknown', backfill_queued: false });
    expect(p.lookups(missing)).toBe(2);
    expect(p.published()).toBe(2);
  });

  test(`C: past ${LOOKUPS_PER_MINUTE} lookups a minute the tool answers "Too many lookups" and GitHub is not asked; other callers keep theirs`, async () => {
    const before = p.standIn.requests.total;
    const lookupsOfC = () => p.standIn.requests.list().filter((r) => r.path.startsWith('/repos/nowhere/')).length;
    for (let i = 0; i < LOOKUPS_PER_MINUTE; i += 1) {
      expect(await p.stateOf('C', `nowhere/repo-${i}`)).toMatchObject({ status: 'unknown', backfill_queued: false });
    }
    expect(lookupsOfC()).toBe(LOOKUPS_PER_MINUTE);
    for (const [tool, args] of [
      ['repositories_state', { repositories: ['nowhere/one-too-many'] }],
      ['read_file', { repository: 'nowhere/one-too-many', path: 'README.md' }],
    ] as const) {
      const refused = errorOf(await p.call('C', tool, args));
      expect(refused.code).toBe('UNAVAILABLE');
      expect(refused.text).toMatch(new RegExp(`Too many lookups of repositories gitdex has not indexed: at most ${LOOKUPS_PER_MINUTE} a minute per token`));
    }
    expect(lookupsOfC()).toBe(LOOKUPS_PER_MINUTE);
    expect(p.standIn.requests.total - before).toBe(LOOKUPS_PER_MINUTE);
    // The bucket is C's: A still has lookups left.
    expect(errorOf(await p.readFile('A', 'open/also-missing', 'README.md')).code).toBe('REPOSITORY_NOT_FOUND');
    expect(p.lookups('open/also-missing')).toBe(1);
    expect(p.published()).toBe(2);
  });
});

describe('a repository gitdex has never seen, with GITDEX_QUEUE_UNSEEN=anonymous', () => {
  let p: Product;
  beforeAll(async () => {
    p = await startProduct('anonymous');
  });
  afterAll(async () => {
    await p?.close();
  });

  test('a caller without a token has the public one queued and then reads it', async () => {
    const head = await headSha(join(p.root, 'open', 'widgets'), 'main');
    expect(await p.stateOf('anonymous', PUBLIC)).toMatchObject({ repository: PUBLIC, status: 'not_indexed', backfill_queued: true });
    expect(p.lookups(PUBLIC)).toBe(1);
    expect(p.published()).toBe(1);
    await p.waitUntilIndexed(PUBLIC, head);
    expect(`${okOf(await p.readFile('anonymous', PUBLIC, PUBLIC_FILE)).content}\n`).toBe(PUBLIC_TEXT);
  });

  test('the private one is looked up for anyone, but never queued for a caller whose token does not name it, and answers as a name GitHub does not have', async () => {
    for (const caller of ['anonymous', 'B'] as const) {
      const before = p.lookups(PRIVATE);
      const refused = errorOf(await p.readFile(caller, PRIVATE, PRIVATE_FILE));
      expect(refused.code).toBe('REPOSITORY_NOT_FOUND');
      // GitHub was asked and has it (gitdex's credentials see it): the refusal is the reader's, not GitHub's.
      expect(p.lookups(PRIVATE)).toBe(before + 1);
      expect(
        p.standIn.requests
          .list()
          .filter((r) => r.path === `/repos/${PRIVATE}`)
          .at(-1)?.status,
      ).toBe(200);
      expect(anonymised(refused, PRIVATE)).toBe(anonymised(errorOf(await p.readFile(caller, 'vault/ledgex', PRIVATE_FILE)), 'vault/ledgex'));
      const state = await p.stateOf(caller, PRIVATE);
      expect(state).toMatchObject({ status: 'unknown', backfill_queued: false });
      expect(anonymised(state, PRIVATE)).toBe(anonymised(await p.stateOf(caller, 'vault/ledgex'), 'vault/ledgex'));
      expect(p.lookups(PRIVATE)).toBe(before + 2);
    }
    expect(p.published()).toBe(1);
    expect(await p.gitdex.adapters.index.findRepositoryByName(PRIVATE)).toBeNull();
  });
});

describe('GITDEX_QUEUE_UNSEEN=anonymous cannot be flooded: buckets per client address, a daily budget, and a size cap the indexer enforces', () => {
  const DAILY = 13;
  const MAX_FILES = 2;
  const BIG = 'big/pile';
  let p: Product;
  beforeAll(async () => {
    p = await startProduct('anonymous', { GITDEX_ANONYMOUS_QUEUE_DAILY: String(DAILY), GITDEX_ANONYMOUS_BACKFILL_MAX_FILES: String(MAX_FILES) });
    await createRepo(p.root, 'big', 'pile', { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  });
  afterAll(async () => {
    await p?.close();
  });

  test(`a backfill queued without a token says the size cap, and the indexer indexes it only within it (${MAX_FILES} files here)`, async () => {
    const big = await p.stateOf('anonymous', BIG);
    expect(big).toMatchObject({ repository: BIG, status: 'not_indexed', backfill_queued: true });
    expect(big.message).toMatch(new RegExp(`Queued without a token, it is indexed only if its default branch holds at most ${MAX_FILES} files and 200 MB`));
    const small = await p.stateOf('anonymous', PUBLIC);
    expect(small).toMatchObject({ backfill_queued: true });
    await p.waitUntilIndexed(PUBLIC, await headSha(join(p.root, 'open', 'widgets'), 'main'));
    const deadline = Date.now() + 20_000;
    while (p.pending() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(p.pending()).toBe(0);
    // Over the cap: nothing of it in the index, and its files were never fetched (no tarball, no blob).
    expect(await p.gitdex.adapters.index.findRepositoryByName(BIG)).toBeNull();
    expect(p.standIn.requests.list().some((r) => r.path.startsWith(`/repos/${BIG}/git/trees/`))).toBe(true);
    expect(p.standIn.requests.list().filter((r) => r.path.startsWith(`/repos/${BIG}/`) && /tarball|blobs/.test(r.path))).toEqual([]);
    expect(await p.stateOf('anonymous', PUBLIC)).toMatchObject({ indexed: true });
  });

  test('each client address has its own bucket of lookups a minute', async () => {
    for (let i = 0; i < LOOKUPS_PER_MINUTE; i += 1) expect((await p.callFrom('127.0.0.2', 'repositories_state', { repositories: [`nowhere/a-${i}`] })).isError).toBeFalsy();
    const refused = errorOf(await p.callFrom('127.0.0.2', 'repositories_state', { repositories: ['nowhere/a-more'] }));
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.text).toMatch(/Too many lookups .* per token \(per address without one\)/);
    // Another address still has its lookups.
    expect((await p.callFrom('127.0.0.3', 'repositories_state', { repositories: ['nowhere/b-0'] })).isError).toBeFalsy();
    expect(p.lookups('nowhere/b-0')).toBe(1);
  });

  test(`callers without a token share ${DAILY} lookups a day, whatever their addresses; tokens keep theirs`, async () => {
    // 2 (size cap) + 10 + 1 (per address) lookups so far.
    const refused = errorOf(await p.callFrom('127.0.0.4', 'read_file', { repository: 'nowhere/c-0', path: 'README.md' }));
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.text).toMatch(new RegExp(`at most ${DAILY} repositories it has not indexed a day for callers without a token`));
    expect(p.lookups('nowhere/c-0')).toBe(0);
    expect(errorOf(await p.readFile('A', 'open/still-missing', 'README.md')).code).toBe('REPOSITORY_NOT_FOUND');
    expect(p.lookups('open/still-missing')).toBe(1);
  });
});
