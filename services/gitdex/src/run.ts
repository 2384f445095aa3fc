import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Env } from '@gitdex/contracts';
import { mountHealth, type Logger } from '@gitdex/observability';
import { createWebhookMetrics, createWebhookRouter } from '@gitdex/webhook';
import { bearerTokens, createReaderRouter, parseReaderTokens, type ReaderOptions } from '@gitdex/reader';
import { createAdapters, type Adapters } from './adapters';
import { startIndexer } from './indexer-runtime';

export type Role = 'all' | 'webhook' | 'indexer' | 'reader';
export const ROLES: readonly Role[] = ['all', 'webhook', 'indexer', 'reader'];

export interface RunningGitdex {
  url: string;
  adapters: Adapters;
  close(): Promise<void>;
}

/** Reader options from the configuration: limits, links and who may read what. */
export function readerOptions(env: Env, adapters: Adapters, log: Logger): ReaderOptions {
  return {
    index: adapters.index,
    publisher: adapters.publisher,
    githubWebUrl: env.GITHUB_WEB_URL,
    limits: { maxLines: env.GITDEX_READ_MAX_LINES, maxChars: env.GITDEX_READ_MAX_CHARS },
    logger: log,
  };
}

/**
 * Runs one role of gitdex, or all of them in one process on one port: the same code
 * whichever adapters the configuration chose.
 */
export async function runGitdex(env: Env, role: Role, log: Logger): Promise<RunningGitdex> {
  const adapters = createAdapters(env);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const app = express();
  app.disable('x-powered-by');
  const checks: Record<string, () => Promise<boolean>> = {};
  const stops: (() => Promise<void>)[] = [];

  if (role === 'all' || role === 'webhook') {
    if (env.GITHUB_WEBHOOK_SECRETS.length === 0) log.warn('GITHUB_WEBHOOK_SECRETS is not set: every webhook delivery will be refused with 401');
    app.use(createWebhookRouter({ secrets: env.GITHUB_WEBHOOK_SECRETS, publisher: adapters.publisher, metrics: createWebhookMetrics(registry), log: (level, message, context) => log[level](context, message) }));
    checks.eventLog = () => adapters.publisher.ping();
  }
  if (role === 'all' || role === 'reader' || role === 'indexer') {
    await adapters.index.ensureReady();
    checks.index = () => adapters.index.ping();
  }
  if (role === 'all' || role === 'reader') {
    const tokens = env.GITDEX_READER_TOKENS ? parseReaderTokens(env.GITDEX_READER_TOKENS) : [];
    app.use(
      createReaderRouter(readerOptions(env, adapters, log), {
        registry,
        allowedOrigins: env.GITDEX_ALLOWED_ORIGINS,
        ...(tokens.length > 0 ? { authenticate: bearerTokens(tokens) } : {}),
      }),
    );
  }
  if (role === 'all' || role === 'indexer') {
    const indexer = await startIndexer(adapters, env, log, registry);
    stops.push(() => indexer.stop());
  }
  mountHealth(app, { registry, checks });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(env.PORT, env.HOST, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  log.info({ url, role, eventLog: adapters.engines.eventLog, index: adapters.engines.index }, 'gitdex listening');

  return {
    url,
    adapters,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const stop of stops) await stop().catch(() => undefined);
      await adapters.close();
    },
  };
}
