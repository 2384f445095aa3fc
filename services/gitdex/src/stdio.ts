import type { Env } from '@gitdex/contracts';
import { createLogger } from '@gitdex/observability';
import { runStdio } from '@gitdex/reader';
import { createAdapters } from './adapters';
import { readerOptions } from './run';

/**
 * Serves the reader's MCP tools over stdin/stdout for a local agent (`gitdex mcp`), on the index
 * the configuration names, until the agent closes stdin. Logs go to stderr: stdout is the protocol.
 */
export async function serveStdio(env: Env): Promise<void> {
  const log = createLogger({ level: env.LOG_LEVEL, destination: 2 });
  const adapters = createAdapters(env, { log });
  try {
    await adapters.index.ensureReady();
    const ended = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
    });
    const server = await runStdio(readerOptions(env, adapters, log));
    await ended;
    await server.close();
  } finally {
    await adapters.close();
  }
}
