// The audit log as the reader writes it: one JSON line per tool call, from the one path every
// call takes (callTool), whatever the transport; callers named by their token's name, never by
// the token; a private repository a caller may not read logged as asked, with the not-found
// outcome the caller was given. Per-caller metrics keep a bounded label set.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { auditLog, parseAuditDestination, type AuditRecord } from '../../src/audit';
import { callerMetrics } from '../../src/caller-metrics';
import type { ObservedCall } from '../../src/tools/call-tool';
import { depsFor, rpc, serve } from './helpers';
import { ACME_PRIVATE, createSecurityWorld, TOKENS, type SecurityWorld } from './world';

const NOW = new Date('2026-01-02T03:04:05.000Z');

describe('the audit log', () => {
  let world: SecurityWorld;
  let dir: string;
  beforeAll(async () => {
    world = await createSecurityWorld();
    dir = mkdtempSync(join(tmpdir(), 'gitdex-audit-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Serves the reader with the audit log in a file, runs `calls`, and returns the lines written. */
  async function audited(name: string, calls: (url: string) => Promise<void>): Promise<{ records: AuditRecord[]; text: string }> {
    const file = join(dir, `${name}.ndjson`);
    const destination = parseAuditDestination(file);
    if (destination === 'off' || destination === 'stdout') throw new Error('a path is a file destination');
    const log = auditLog(destination, { now: () => NOW });
    const served = await serve(depsFor(world), { audit: log.observe });
    try {
      await calls(served.url);
    } finally {
      await served.close();
      await log.close();
    }
    const text = readFileSync(file, 'utf8');
    return {
      text,
      records: text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AuditRecord),
    };
  }

  it('writes one line for a REST call, naming the token by its name', async () => {
    const { records, text } = await audited('rest', async (url) => {
      const response = await fetch(`${url}/v1/repositories/acme/tools/files/src/index.ts`, { headers: { authorization: `Bearer ${TOKENS.acmeToken}` } });
      expect(response.status).toBe(200);
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toEqual({
      time: NOW.toISOString(),
      who: 'acme-team',
      address: expect.stringMatching(/127\.0\.0\.1/),
      transport: 'rest',
      tool: 'read_file',
      repository: 'acme/tools',
      path: 'src/index.ts',
      outcome: 'ok',
      results: 1,
      ms: expect.any(Number),
    });
    expect(text).not.toContain(TOKENS.acmeToken);
  });

  it('writes one line for an MCP call, with the query and the number of files found', async () => {
    const { records, text } = await audited('mcp', async (url) => {
      const answer = await rpc(url, 'tools/call', { name: 'search_code', arguments: { query: 'http', repository: 'acme/tools' } }, { authorization: `Bearer ${TOKENS.publicToken}` });
      expect(answer.status).toBe(200);
      expect(answer.body.result.isError).toBeUndefined();
    });
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(record).toMatchObject({ who: 'public-bot', transport: 'http', tool: 'search_code', repository: 'acme/tools', query: 'http', outcome: 'ok' });
    expect(record.results).toBeGreaterThan(0);
    expect(record.ms).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain(TOKENS.publicToken);
  });

  it('logs a private repository a caller may not read as asked, with the same not-found outcome as a name that does not exist', async () => {
    const { records } = await audited('private', async (url) => {
      for (const repository of [ACME_PRIVATE, 'acme/never-was-k9']) {
        const response = await fetch(`${url}/v1/repositories/${repository}/files/README.md`);
        expect(response.status).toBe(404);
      }
    });
    expect(records).toHaveLength(2);
    const [secret, missing] = records as [AuditRecord, AuditRecord];
    expect(secret).toMatchObject({ who: 'anonymous', address: expect.any(String), repository: ACME_PRIVATE, path: 'README.md', results: 0 });
    expect(secret.outcome).toBe(missing.outcome);
    expect(secret.outcome).toMatch(/NOT_FOUND/);
  });

  it('is off unless configured, and takes stdout or a file path', () => {
    expect(parseAuditDestination(undefined)).toBe('off');
    expect(parseAuditDestination('off')).toBe('off');
    expect(parseAuditDestination('stdout')).toBe('stdout');
    expect(parseAuditDestination('/var/log/gitdex/audit.ndjson')).toEqual({ file: '/var/log/gitdex/audit.ndjson' });
  });
});

describe('per-caller metrics', () => {
  const call = (id: string | null): ObservedCall => ({ tool: 'read_file', transport: 'rest', outcome: 'ok', seconds: 0.001, principal: id === null ? null : { id }, args: {} });

  async function series(registry: Registry): Promise<Map<string, number>> {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'gitdex_reader_caller_calls_total');
    return new Map((metric?.values ?? []).map((v) => [String(v.labels.caller), v.value]));
  }

  it('name the top callers and count the rest as "other": 200 callers make top + 1 series', async () => {
    const registry = new Registry();
    const observe = callerMetrics(registry, 50);
    // Caller i calls i + 1 times: callers 150 to 199 are the top 50.
    for (let i = 0; i < 200; i += 1) for (let n = 0; n <= i; n += 1) observe(call(`caller-${i}`));
    for (let n = 0; n < 3; n += 1) observe(call(null));
    const counts = await series(registry);
    expect(counts.size).toBe(51);
    expect(counts.get('caller-199')).toBe(200);
    expect(counts.get('caller-150')).toBe(151);
    expect(counts.has('caller-149')).toBe(false);
    const total = (200 * 201) / 2 + 3;
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(total);
    expect(counts.get('other')).toBe(total - [...Array(50).keys()].reduce((sum, k) => sum + 151 + k, 0));
  });

  it('stay bounded in memory too: callers past the tracked ones count toward "other" at once', async () => {
    const registry = new Registry();
    const observe = callerMetrics(registry, 2);
    for (let i = 0; i < 1000; i += 1) observe(call(`drive-by-${i}`));
    const counts = await series(registry);
    expect(counts.size).toBe(3);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('are served at /metrics after calls over both transports', async () => {
    const world = await createSecurityWorld();
    const served = await serve(depsFor(world), { callerLabels: 1 });
    try {
      await fetch(`${served.url}/v1/repositories/acme/tools`, { headers: { authorization: `Bearer ${TOKENS.adminToken}` } });
      await rpc(served.url, 'tools/call', { name: 'repository_overview', arguments: { repository: 'acme/tools' } }, { authorization: `Bearer ${TOKENS.adminToken}` });
      await fetch(`${served.url}/v1/repositories/acme/tools`);
      const text = await (await fetch(`${served.url}/metrics`)).text();
      expect(text).toMatch(/gitdex_reader_caller_calls_total\{caller="admin"\} 2/);
      expect(text).toMatch(/gitdex_reader_caller_calls_total\{caller="other"\} 1/);
    } finally {
      await served.close();
    }
  });
});
