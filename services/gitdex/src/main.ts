#!/usr/bin/env node
import { ConfigError, loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runCli } from './cli';
import { entryFor } from './entry';
import { ROLES, runGitdex, type Role } from './run';
import { serveStdio } from './stdio';

/**
 * The image's entry point: `node services/gitdex/dist/main.js` (or `… serve`) runs GITDEX_ROLE
 * (all by default); any other arguments are a `gitdex` command (`status`, `index`, `reindex`,
 * `dlq`, `reconcile`, `mcp`, …) run by the CLI, whose exit code the process ends with.
 */
async function main(): Promise<void> {
  const entry = entryFor(process.argv.slice(2));
  if (entry.run === 'cli') {
    process.exitCode = await runCli(entry.argv);
    return;
  }
  const env = loadEnv(process.env);
  if (entry.run === 'stdio') return serveStdio(env);
  const log = createLogger({ level: env.LOG_LEVEL });
  const role = (process.env.GITDEX_ROLE ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new ConfigError([{ variable: 'GITDEX_ROLE', message: `must be one of ${ROLES.join(', ')}` }]);
  const running = await runGitdex(env, role, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`gitdex: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`gitdex: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
