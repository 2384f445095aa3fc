// CLI: npm run github:standin -- --root DIR [--port 3030] [--webhook-url URL] [--secret S] [--token T]
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGitHubStandIn } from './server';

const USAGE = `Usage: npm run github:standin -- --root DIR [options]

  --root DIR              directory with <owner>/<repo> git repositories (created if missing)
  --port PORT             port to listen on (default 3030; 0 picks a free one)
  --host HOST             interface to listen on (default 127.0.0.1)
  --webhook-url URL       where push/repository webhooks are delivered
  --secret SECRET         webhook secret (X-Hub-Signature-256)
  --token TOKEN           require "Authorization: token TOKEN" on API requests
  --html-base-url URL     base of html_url links (default https://github.com)
  --installation-id ID    add installation {id} to webhook payloads
  --org LOGIN             treat LOGIN as an organization (repeatable)
  --max-tree-entries N    truncate recursive trees after N entries (default 100000)
  --quiet                 do not log requests
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      port: { type: 'string', default: '3030' },
      host: { type: 'string', default: '127.0.0.1' },
      'webhook-url': { type: 'string' },
      secret: { type: 'string' },
      token: { type: 'string' },
      'html-base-url': { type: 'string' },
      'installation-id': { type: 'string' },
      org: { type: 'string', multiple: true },
      'max-tree-entries': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || !values.root) {
    process.stdout.write(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const root = resolve(values.root);
  mkdirSync(root, { recursive: true });
  const number = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));
  const standIn = await createGitHubStandIn({
    root,
    port: Number(values.port),
    host: values.host,
    webhookUrl: values['webhook-url'],
    secret: values.secret,
    token: values.token,
    htmlBaseUrl: values['html-base-url'],
    installationId: number(values['installation-id']),
    organizations: values.org,
    maxTreeEntries: number(values['max-tree-entries']),
    onRequestLog: values.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`GitHub stand-in listening on ${standIn.url} (root ${root})\n`);
  if (values['webhook-url']) process.stdout.write(`Webhooks go to ${values['webhook-url']}\n`);
  const stop = (): void => {
    standIn.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
