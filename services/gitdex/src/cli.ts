#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ConfigError, loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { PortError } from '@gitdex/ports';
import { createAdapters } from './adapters';
import type { CliContext } from './cli/context';
import { CliError, EXIT } from './cli/exit-codes';
import { backfillCommand, type BackfillOptions } from './cli/backfill-command';
import { indexCommand } from './cli/index-command';
import { dlqListCommand, dlqReplayCommand, reconcileCommand, reindexCommand } from './cli/maintenance-commands';
import { statusCommand } from './cli/status-command';
import { peopleCommand } from './cli/people-command';
import { serveStdio } from './stdio';

/** Runs one CLI command with adapters from the environment, and always closes them. */
function action<A extends unknown[]>(run: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async (...args: A) => {
    const env = loadEnv(process.env);
    // Background failures of the adapters (a lost connection while a command runs) go to stderr.
    const adapters = createAdapters(env, { log: createLogger({ level: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL, destination: 2 }) });
    try {
      await run({ env, adapters, out: { log: (line) => process.stdout.write(`${line}\n`), error: (line) => process.stderr.write(`${line}\n`) } }, ...args);
    } finally {
      await adapters.close();
    }
  };
}

export function buildProgram(): Command {
  const program = new Command('gitdex')
    .description('Operate gitdex: index repositories, see the index state, replay dead letters, heal drift.\nConfiguration comes from the same environment variables as the services (see README).')
    .exitOverride();
  program
    .command('index <repository>')
    .description('Index owner/repo now (a backfill), with progress and an ETA')
    .option('--ref <branch>', 'a branch other than the configured ones')
    .option('--queue', 'queue the backfill for the indexer service instead of running it here')
    .action(action((ctx, repository: string, options: { ref?: string; queue?: boolean }) => indexCommand(ctx, repository, options)));
  program
    .command('backfill')
    .description("Queue every repository a GitHub App installation can see (or every installation's) and show progress until all are indexed")
    .option('--installation <id>', 'one installation, by its numeric id')
    .option('--org <name>', 'the installation on an organisation (or user) account')
    .option('--all', 'every installation of the App')
    .option('--no-wait', 'queue and return without waiting')
    .option('--timeout <seconds>', 'stop waiting after this long (the backfills stay queued)', '3600')
    .action(action((ctx, options: BackfillOptions) => backfillCommand(ctx, options)));
  program
    .command('status')
    .description('Repositories, refs, commits, freshness, failures, consumer lag and dead letters')
    .option('--json', 'machine-readable output')
    .option('--server <url>', "the running indexer, asked for the reconciler's last pass (default http://HOST:PORT)")
    .action(action((ctx, options: { json?: boolean; server?: string }) => statusCommand(ctx, options)));
  program
    .command('people')
    .description('Who is signed in with GitHub, through which clients, and when their permissions were last refreshed')
    .option('--json', 'machine-readable output')
    .action(action((ctx, options: { json?: boolean }) => peopleCommand(ctx, options)));
  program
    .command('reindex')
    .description('Copy the index into new physical indices and swap the aliases (Elasticsearch)')
    .action(action((ctx) => reindexCommand(ctx)));
  const dlq = program.command('dlq').description('Dead letters: events that failed every attempt');
  dlq
    .command('list')
    .option('--json', 'machine-readable output')
    .action(action((ctx, options: { json?: boolean }) => dlqListCommand(ctx, options)));
  dlq
    .command('replay [ids...]')
    .description('Publish dead letters again (all, or those named) once their cause is fixed')
    .action(action((ctx, ids: string[]) => dlqReplayCommand(ctx, ids)));
  program
    .command('mcp')
    .description('Serve the MCP tools over stdin/stdout for a local agent, until it closes stdin')
    .action(() => serveStdio(loadEnv(process.env)));
  program
    .command('reconcile')
    .description("Compare every indexed ref with GitHub's head and queue a backfill for each that drifted")
    .action(action((ctx) => reconcileCommand(ctx)));
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const say = (text: string) => process.stderr.write(`gitdex: ${text}\n`);
    if (error instanceof ConfigError) {
      say(error.message);
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      say(error.message);
      return error.exitCode;
    }
    if (error instanceof PortError) {
      say(`${error.message}${error.retriable ? ' (temporary: try again)' : ''}`);
      return EXIT.failed;
    }
    say(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return EXIT.failed;
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
