// `npm run demo`: gitdex end to end without the internet. A throw-away git repository is
// served by the GitHub stand-in, gitdex runs in one process on its embedded defaults,
// a push is delivered as a signed webhook, and the MCP answers are shown before and after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runGitdex } from '../services/gitdex/src/run';
import { createGitHubStandIn } from '../test/github-standin/server';
import { commitFiles, createBranch, createRepo } from '../test/github-standin/fixture-repos';

const SECRET = 'demo-webhook-secret';
const say = (text: string) => process.stdout.write(`\n\x1b[1m== ${text}\x1b[0m\n`);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gitdex-demo-'));
  const root = join(work, 'github');
  const standIn = await createGitHubStandIn({ root, secret: SECRET });
  const env = loadEnv({
    PORT: process.env.PORT ?? '0',
    GITDEX_DATA_DIR: join(work, 'data'),
    GITHUB_API_URL: standIn.url,
    GITHUB_TOKEN: 'demo-token',
    GITHUB_WEBHOOK_SECRETS: SECRET,
    LOG_LEVEL: 'warn',
  });
  const gitdex = await runGitdex(env, 'all', createLogger({ level: 'warn' }));
  standIn.configure({ webhookUrl: `${gitdex.url}/webhooks/github` });
  const client = new Client({ name: 'gitdex-demo', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gitdex.url}/mcp`)));
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
    process.stdout.write(`\n$ ${name} ${JSON.stringify(args)}\n${text}\n`);
  };
  const waitForCommit = async (commit: string) => {
    for (let i = 0; i < 200; i += 1) {
      const state = (await (await fetch(`${gitdex.url}/v1/repositories?repositories=demo/hello`)).json()) as { repositories: { commit: string | null }[] };
      if (state.repositories[0]?.commit === commit) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the push was not indexed within 20 s');
  };

  try {
    say(`gitdex runs at ${gitdex.url} (SQLite event log and index in ${env.GITDEX_DATA_DIR}); GitHub is the stand-in at ${standIn.url}`);
    const repo = await createRepo(root, 'demo', 'hello', {
      'README.md': '# hello\n\nA tiny repository for the gitdex demo.\n',
      'src/greeting.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
      'src/main.ts': "import { greet } from './greeting';\n\nconsole.log(greet('world'));\n",
    });
    say('push to main: the stand-in delivers a signed push webhook');
    const first = await standIn.push('demo', 'hello', { ref: 'refs/heads/main' });
    process.stdout.write(`webhook answered ${first.delivery.status} ${first.delivery.responseBody ?? ''}\n`);
    await waitForCommit(repo.sha!);
    await call('repositories_state', { repositories: ['demo/hello'] });
    await call('list_files', { repository: 'demo/hello', depth: 2 });
    await call('read_file', { repository: 'demo/hello', path: 'src/greeting.ts' });
    await call('suggest_paths', { repository: 'demo/hello', query: 'src/greting' });

    say('a second push: greeting.ts changes and a test is added');
    const next = await commitFiles(
      repo.dir,
      {
        'src/greeting.ts': 'export function greet(name: string, punctuation = "!"): string {\n  return `Hello, ${name}${punctuation}`;\n}\n',
        'test/greeting.test.ts': "import { greet } from '../src/greeting';\n\ntest('greets', () => expect(greet('you')).toBe('Hello, you!'));\n",
      },
      'Punctuation is configurable',
    );
    const started = Date.now();
    await standIn.push('demo', 'hello', { ref: 'refs/heads/main' });
    await waitForCommit(next);
    process.stdout.write(`indexed ${next.slice(0, 12)} ${Date.now() - started} ms after the push webhook was sent\n`);
    await call('read_file', { repository: 'demo/hello', path: 'src/greeting.ts', start_line: 1, end_line: 2 });
    await call('list_files', { repository: 'demo/hello', depth: 2 });
    await call('read_file', { repository: 'demo/hello', path: 'test/greting.test.ts' });

    say('symbols: where greet is defined, what greeting.ts holds, who calls greet');
    await call('find_symbol', { name: 'greet' });
    await call('file_outline', { repository: 'demo/hello', path: 'src/greeting.ts' });
    await call('find_references', { name: 'greet', repository: 'demo/hello' });

    say('history: the commits, what the second push changed, who wrote each line');
    await call('list_commits', { repository: 'demo/hello' });
    await call('compare', { repository: 'demo/hello', base: repo.sha!.slice(0, 12), head: next.slice(0, 12), path: 'src/greeting.ts' });
    await call('blame', { repository: 'demo/hello', path: 'src/greeting.ts' });

    say('a pull request opens: its head is readable and searchable as pull/1');
    await createBranch(repo.dir, 'farewell', 'main');
    const head = await commitFiles(repo.dir, { 'src/farewell.ts': 'export function farewell(name: string): string {\n  return `Goodbye, ${name}.`;\n}\n' }, 'Say goodbye', { branch: 'farewell' });
    const opened = await fetch(`${standIn.url}/_admin/repos/demo/hello/pulls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ head: 'farewell', base: 'main', title: 'Say goodbye' }),
    });
    process.stdout.write(`the stand-in opened a pull request and delivered its webhook: ${opened.status}\n`);
    // min_commit and wait_ms: the answer comes once the pull request's head commit is served.
    await call('find_symbol', { name: 'farewell', repository: 'demo/hello', ref: 'pull/1', min_commit: head, wait_ms: 10_000 });
    await call('compare', { repository: 'demo/hello', base: 'main', head: 'pull/1' });
  } finally {
    await client.close();
    await gitdex.close();
    await standIn.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
