import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { sign } from '@gitdex/webhook';
import { runGitdex, type RunningGitdex } from '../../../gitdex/src/run';
import { JSON_RPC_HEADERS } from './helpers';

/**
 * The whole product in one process, with the production logger writing to a file: tokens,
 * webhook secrets and the GitHub token are used (right and wrong), failures are provoked, and
 * not one log line may hold any of them.
 */
const READER_TOKEN = 'reader-canary-token-7c1e0a55d2';
const OTHER_TOKEN = 'second-canary-token=+/9b8a7f6e';
const WEBHOOK_SECRET = 'webhook-canary-secret-4d3c2b1a';
const OLD_SECRET = 'webhook-old-canary-secret-0f9e8d';
const GITHUB_TOKEN = 'ghp_canaryGitHubToken0123456789abcdef';
const WRONG_TOKEN = 'wrong-canary-token-5e6f7a8b9c';

describe('no secret reaches a log line', () => {
  let dir: string;
  let fd: number;
  let github: Server;
  let gitdex: RunningGitdex;
  const githubRequests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-logs-'));
    fd = openSync(join(dir, 'log.ndjson'), 'w');
    // GitHub refuses the token: the indexer fails and logs why.
    github = http.createServer((req, res) => {
      githubRequests.push(String(req.headers.authorization));
      res.writeHead(req.url?.includes('/git/') ? 500 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }));
    });
    await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
    const env = loadEnv({
      PORT: '0',
      GITDEX_DATA_DIR: join(dir, 'data'),
      GITHUB_API_URL: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
      GITHUB_TOKEN,
      GITHUB_WEBHOOK_SECRETS: `${WEBHOOK_SECRET},${OLD_SECRET}`,
      GITDEX_READER_TOKENS: `ci:${READER_TOKEN}=*;other:${OTHER_TOKEN}=acme/*`,
      GITDEX_READER_RATE_LIMIT: '600',
      GITDEX_READER_RATE_BURST: '5',
      GITDEX_MAX_ATTEMPTS: '1',
      LOG_LEVEL: 'trace',
    });
    gitdex = await runGitdex(env, 'all', createLogger({ level: 'trace', destination: fd }));
  });

  afterAll(async () => {
    await gitdex?.close();
    await new Promise<void>((resolve) => github.close(() => resolve()));
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  test('reader, webhook and indexer, used right and wrong, log none of the tokens and secrets', async () => {
    const url = gitdex.url;
    // Reader: right, wrong and malformed tokens, on both transports, past the rate limit.
    for (const authorization of [
      `Bearer ${READER_TOKEN}`,
      `Bearer ${OTHER_TOKEN}`,
      `Bearer ${WRONG_TOKEN}`,
      `Basic ${Buffer.from(`x:${READER_TOKEN}`).toString('base64')}`,
      `Bearer ${READER_TOKEN} ${WRONG_TOKEN}`,
    ]) {
      for (let i = 0; i < 7; i += 1) {
        await fetch(`${url}/v1/repositories?repository=acme/${i}`, { headers: { authorization } });
        await fetch(`${url}/v1/repositories/acme/x/files/${encodeURIComponent(READER_TOKEN)}?ref=${encodeURIComponent(WRONG_TOKEN)}`, { headers: { authorization } });
        await fetch(`${url}/mcp`, {
          method: 'POST',
          headers: { ...JSON_RPC_HEADERS, authorization },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_file', arguments: { repository: 'acme/x', path: READER_TOKEN } } }),
        });
        await fetch(`${url}/mcp`, { method: 'POST', headers: { ...JSON_RPC_HEADERS, authorization }, body: `{"broken": "${WEBHOOK_SECRET}` });
      }
    }
    // Webhook: signed with the current and the old secret, with a wrong one, unsigned, and a body that carries the secret.
    const push = (id: number) =>
      JSON.stringify({
        ref: 'refs/heads/main',
        before: '0'.repeat(40),
        after: 'a'.repeat(40),
        created: true,
        deleted: false,
        forced: false,
        repository: { id, full_name: `acme/repo-${id}`, default_branch: 'main', private: true, html_url: `https://github.com/acme/repo-${id}` },
      });
    const deliver = (body: string, signature: string | undefined, id: string) =>
      fetch(`${url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': id, ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body,
      });
    expect((await deliver(push(1), sign(push(1), WEBHOOK_SECRET), 'd-1')).status).toBe(202);
    expect((await deliver(push(2), sign(push(2), OLD_SECRET), 'd-2')).status).toBe(202);
    expect((await deliver(push(3), sign(push(3), WRONG_TOKEN), 'd-3')).status).toBe(401);
    expect((await deliver(push(4), undefined, 'd-4')).status).toBe(401);
    const carrying = `{"secret": "${WEBHOOK_SECRET}", "token": "${GITHUB_TOKEN}"`;
    expect((await deliver(carrying, sign(carrying, WEBHOOK_SECRET), 'd-5')).status).toBe(400);

    // The indexer tries GitHub with the token, fails and logs it (then sends the events to the dead letters).
    const logged = () => readFileSync(join(dir, 'log.ndjson'), 'utf8');
    const deadline = Date.now() + 20_000;
    while (!/dead letters/.test(logged()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(githubRequests.some((a) => a.includes(GITHUB_TOKEN))).toBe(true);

    const text = logged();
    expect(text).toMatch(/gitdex listening/);
    expect(text).toMatch(/dead letters/);
    // The failures were logged with their details, so the check below means something.
    expect(text).toMatch(/Bad credentials|401/);
    const lines = text.trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of [READER_TOKEN, OTHER_TOKEN, WRONG_TOKEN, WEBHOOK_SECRET, OLD_SECRET, GITHUB_TOKEN, sign(push(1), WEBHOOK_SECRET).slice(7)]) {
      expect({ secret, found: lines.filter((line) => line.includes(secret)) }).toEqual({ secret, found: [] });
    }
    // Base64 and percent-encoded forms too.
    for (const secret of [READER_TOKEN, GITHUB_TOKEN]) {
      expect(text).not.toContain(Buffer.from(secret).toString('base64').slice(0, 20));
      expect(text).not.toContain(encodeURIComponent(secret));
    }
  });
});
