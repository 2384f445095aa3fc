// /metrics on its own port (GITDEX_METRICS_PORT) and the audit log (GITDEX_AUDIT_LOG), as
// `npm start` runs them: loadEnv → runGitdex with the embedded engines.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runGitdex, type RunningGitdex } from '../src/run';

describe('the metrics port and the audit log setting', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-metrics-port-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function start(extra: Record<string, string>): Promise<RunningGitdex> {
    const env = loadEnv({ PORT: '0', HOST: '127.0.0.1', GITDEX_DATA_DIR: join(dir, 'data'), GITDEX_READER_TOKENS: 'ops-bot:ops-token-0123456789abcdef=*', ...extra });
    return runGitdex(env, 'all', createLogger({ level: 'silent' }));
  }

  it('unset: /metrics answers on the main port, as before', async () => {
    const gitdex = await start({});
    try {
      expect(gitdex.metricsUrl).toBeUndefined();
      const response = await fetch(`${gitdex.url}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/gitdex_reader_tool_calls_total/);
    } finally {
      await gitdex.close();
    }
  });

  it('set: /metrics answers on its own port with the per-caller counts, and no longer on the main port; the audit file gets a line', async () => {
    const auditFile = join(dir, 'audit.ndjson');
    const gitdex = await start({ GITDEX_METRICS_PORT: '0', GITDEX_AUDIT_LOG: auditFile, GITDEX_METRICS_CALLERS: '5' });
    try {
      expect(gitdex.metricsUrl).toBeDefined();
      expect(gitdex.metricsUrl).not.toBe(gitdex.url);
      const call = await fetch(`${gitdex.url}/v1/repositories`, { headers: { authorization: 'Bearer ops-token-0123456789abcdef' } });
      expect(call.status).toBe(200);
      const metrics = await fetch(`${gitdex.metricsUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/gitdex_reader_caller_calls_total\{caller="ops-bot"\} 1/);
      expect((await fetch(`${gitdex.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${gitdex.url}/healthz`)).status).toBe(200);
    } finally {
      await gitdex.close();
    }
    const lines = readFileSync(auditFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ who: 'ops-bot', transport: 'rest', tool: 'repositories_state', outcome: 'ok' });
    expect(lines[0]).not.toContain('ops-token-0123456789abcdef');
  });

  it('a metrics port that cannot be bound fails the start with a message naming the setting', async () => {
    const first = await start({ GITDEX_METRICS_PORT: '0' });
    try {
      const port = new URL(first.metricsUrl!).port;
      await expect(start({ GITDEX_METRICS_PORT: port })).rejects.toThrow(/GITDEX_METRICS_PORT: cannot serve \/metrics on port \d+: .*EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  it('refuses wrong settings at start, naming them', async () => {
    expect(() => loadEnv({ GITDEX_METRICS_PORT: 'nine' })).toThrow(/GITDEX_METRICS_PORT/);
    expect(() => loadEnv({ GITDEX_METRICS_CALLERS: '0' })).toThrow(/GITDEX_METRICS_CALLERS/);
    await expect(start({ GITDEX_AUDIT_LOG: join(dir, 'no-such-folder', 'audit.ndjson') })).rejects.toThrow(/GITDEX_AUDIT_LOG: cannot append to .*no-such-folder.*ENOENT/);
  });
});
