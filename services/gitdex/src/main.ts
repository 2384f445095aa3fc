#!/usr/bin/env node
import { ConfigError, loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runStdio } from '@gitdex/reader';
import { createAdapters } from './adapters';
import { readerOptions, ROLES, runGitdex, type Role } from './run';

/**
 * The entry point: `node services/gitdex/dist/main.js` runs GITDEX_ROLE (all by default);
 * `--stdio` serves the reader's MCP tools over stdin/stdout for a local agent.
 */
async function main(): Promise<void> {
  const env = loadEnv(process.env);
  const stdio = process.argv.includes('--stdio');
  // In stdio mode stdout carries the protocol, so logs go to stderr.
  const log = createLogger({ level: env.LOG_LEVEL, destination: stdio ? 2 : 1 });
  if (stdio) {
    const adapters = createAdapters(env);
    await adapters.index.ensureReady();
    await runStdio(readerOptions(env, adapters, log));
    return;
  }
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
