#!/usr/bin/env node
import { ConfigError, loadEnv } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { ROLES, runGitdex, type Role } from './run';
import { serveStdio } from './stdio';

/**
 * The entry point: `node services/gitdex/dist/main.js` runs GITDEX_ROLE (all by default);
 * `mcp` (or `--stdio`, kept for older setups) is `gitdex mcp`: the reader's MCP tools over stdin/stdout for a local agent.
 */
async function main(): Promise<void> {
  const env = loadEnv(process.env);
  if (process.argv[2] === 'mcp' || process.argv.includes('--stdio')) return serveStdio(env);
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
