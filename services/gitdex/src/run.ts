import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ConfigError, type Env, type PermissionEvent } from '@gitdex/contracts';
import { errorFields, mountHealth, type HealthOptions, type Logger } from '@gitdex/observability';
import { createWebhookMetrics, createWebhookRouter } from '@gitdex/webhook';
import {
  allowedHostsFor,
  type AuditDestination,
  type AuditLog,
  auditLog,
  bearerTokens,
  createReaderRouter,
  parseAuditDestination,
  readerTokenEntries,
  readAheadMetrics,
  personAccess,
  type ReaderHttpOptions,
  type SignIn,
  type ReaderOptions,
  composeIndex,
} from '@gitdex/reader';
import { createAdapters, type Adapters } from './adapters';
import { peopleFromEnv } from './sign-in-runtime';
import { createHttpServer } from './http-server';
import { checkEngineAccess } from './engine-access';
import { startIndexer } from './indexer-runtime';
import { createConsoleRouter } from '@gitdex/console';
import { createIndexerMetrics } from '@gitdex/indexer';

export type Role = 'all' | 'webhook' | 'indexer' | 'reader';
export const ROLES: readonly Role[] = ['all', 'webhook', 'indexer', 'reader'];

export interface RunningGitdex {
  url: string;
  /** Where /metrics is served when GITDEX_METRICS_PORT gives it its own port. */
  metricsUrl?: string;
  adapters: Adapters;
  close(): Promise<void>;
}

/**
 * How the reader keeps what an agent reads one call after another (docs/reader.md): answers
 * of a snapshot, lookups reused 100 ms; the lookups of repositories read in the last 30 s
 * kept fresh in the background, and a ref's small files loaded on its first read, so that the
 * next files read are answered from memory (on SQLite too: its lookups cost little, but a
 * cold read still paid 1.3x the filesystem server's).
 */
const READS_AHEAD = {
  keepFreshMs: 30_000,
  preload: { maxFileBytes: 128 * 1024, maxBytes: 24 * 1024 * 1024, everyMs: 30_000 },
  catalogue: { maxFiles: 100_000, maxTotalFiles: 200_000, everyMs: 30_000 },
};

/** Reader options from the configuration: limits, links and who may read what (loads ahead counted in `registry` when given). */
export function readerOptions(env: Env, adapters: Adapters, log: Logger, registry?: Registry): ReaderOptions {
  return {
    index: composeIndex(adapters.index, { ...READS_AHEAD, ...(registry ? { onReadAhead: readAheadMetrics(registry) } : {}) }),
    publisher: adapters.publisher,
    history: adapters.history,
    githubWebUrl: env.GITHUB_WEB_URL,
    limits: {
      maxLines: env.GITDEX_READ_MAX_LINES,
      maxChars: env.GITDEX_READ_MAX_CHARS,
      maxBytes: env.GITDEX_READ_MAX_BYTES,
      defaultBytes: Math.min(env.GITDEX_READ_DEFAULT_BYTES, env.GITDEX_READ_MAX_BYTES),
      searchCacheBytes: env.GITDEX_SEARCH_CACHE_MB * 1024 * 1024,
    },
    logger: log,
    sites: env.GITDEX_PUBLISHED_SITES,
    // Public repositories for every caller; private ones for the tokens whose patterns name them, and for the people the permission mirror says may read them.
    access: personAccess,
    // A repository gitdex never saw is looked up on GitHub (with the indexer's credentials) before it is queued.
    lookup: (fullName) => adapters.source.repositoryByName(fullName),
    queueUnseen: env.GITDEX_QUEUE_UNSEEN,
    anonymousLookupsPerDay: env.GITDEX_ANONYMOUS_QUEUE_DAILY,
    anonymousBackfillCap: { maxFiles: env.GITDEX_ANONYMOUS_BACKFILL_MAX_FILES, maxBytes: env.GITDEX_ANONYMOUS_BACKFILL_MAX_BYTES },
    waitPollMs: env.GITDEX_WAIT_POLL_MS,
  };
}

/**
 * Who may call the reader over HTTP and how often: bearer tokens (GITDEX_READER_TOKENS and
 * GITDEX_READER_TOKENS_FILE), anonymous callers unless GITDEX_REQUIRE_AUTH, the Host
 * allow-list against DNS rebinding and the per-caller rate limit.
 */
export function readerHttpOptions(env: Env, signIn?: SignIn): Omit<ReaderHttpOptions, 'registry'> {
  const tokens = readerTokenEntries([...env.GITDEX_READER_TOKENS, ...env.GITDEX_READER_TOKENS_FILE]);
  const machines = tokens.length > 0 ? bearerTokens(tokens) : undefined;
  // Signed-in people first (their tokens say so by prefix), then the static tokens, unchanged.
  const authenticate = signIn ? signIn.authenticate(machines) : machines;
  const allowedHosts = allowedHostsFor(env.HOST, env.GITDEX_ALLOWED_HOSTS);
  // Bound to every interface with no list, the DNS-rebinding check would be off: refuse to start instead.
  if (!allowedHosts && !env.GITDEX_ALLOWED_HOSTS.includes('*')) {
    throw new ConfigError([
      {
        variable: 'GITDEX_ALLOWED_HOSTS',
        message: `HOST=${env.HOST} binds every interface: set GITDEX_ALLOWED_HOSTS to the host names callers use (e.g. localhost,gitdex.example.com), or "*" to turn the Host check off on purpose`,
      },
    ]);
  }
  return {
    allowedOrigins: env.GITDEX_ALLOWED_ORIGINS,
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(authenticate ? { authenticate, anonymous: !env.GITDEX_REQUIRE_AUTH } : {}),
    ...(signIn ? { resourceMetadataUrl: signIn.resourceMetadataUrl } : {}),
    ...(env.GITDEX_READER_RATE_LIMIT > 0 ? { rateLimit: { perMinute: env.GITDEX_READER_RATE_LIMIT, ...(env.GITDEX_READER_RATE_BURST ? { burst: env.GITDEX_READER_RATE_BURST } : {}) } } : {}),
  };
}

/**
 * Runs one role of gitdex, or all of them in one process on one port: the same code
 * whichever adapters the configuration chose.
 */
export async function runGitdex(env: Env, role: Role, log: Logger): Promise<RunningGitdex> {
  // Opened before anything starts: an audit file that cannot be written stops the start cleanly.
  const destination = role === 'all' || role === 'reader' ? parseAuditDestination(env.GITDEX_AUDIT_LOG) : 'off';
  const audit = destination === 'off' ? undefined : openAuditLog(destination, log);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const indexing = role === 'all' || role === 'indexer';
  const indexerMetrics = indexing ? createIndexerMetrics(registry) : undefined;
  await checkEngineAccess(env, log);
  const adapters = createAdapters(env, {
    log,
    ...(indexerMetrics ? { onRateLimit: (remaining: number, resource: string) => indexerMetrics.githubRateLimitRemaining.set({ resource }, remaining) } : {}),
  });
  const app = express();
  app.disable('x-powered-by');
  const checks: Record<string, () => Promise<boolean>> = {};
  const notes: NonNullable<HealthOptions['notes']> = {};
  const stops: (() => Promise<void>)[] = [];

  // Sign-in with GitHub and the permission mirror, when configured: the webhook role feeds the mirror, the reader role signs people in.
  const people = role === 'indexer' ? undefined : peopleFromEnv(env, adapters, log);
  if (people) stops.push(() => people.stop());
  if (role === 'all' || role === 'webhook') {
    if (env.GITHUB_WEBHOOK_SECRETS.length === 0) log.warn('GITHUB_WEBHOOK_SECRETS is not set: every webhook delivery will be refused with 401');
    const permissions = people ? (event: PermissionEvent) => people.mirror.onWebhook(event) : undefined;
    app.use(createWebhookRouter({ secrets: env.GITHUB_WEBHOOK_SECRETS, publisher: adapters.publisher, metrics: createWebhookMetrics(registry), log, ...(permissions ? { permissions } : {}) }));
    checks.eventLog = () => adapters.publisher.ping();
  }
  if (role === 'all' || role === 'reader' || role === 'indexer') {
    await adapters.index.ensureReady();
    checks.index = () => adapters.index.ping();
  }
  if (role === 'all' || role === 'reader') {
    if (audit) stops.push(() => audit.close());
    if (people) {
      app.use(people.signIn.router);
      people.startTimers();
    }
    app.use(
      createReaderRouter(readerOptions(env, adapters, log, registry), {
        registry,
        ...readerHttpOptions(env, people?.signIn),
        callerLabels: env.GITDEX_METRICS_CALLERS,
        ...(audit ? { audit: audit.observe } : {}),
      }),
    );
    app.use(createConsoleRouter());
  }
  if (role === 'all' || role === 'indexer') {
    const indexer = await startIndexer(adapters, env, log, indexerMetrics ?? createIndexerMetrics(registry), registry);
    stops.push(() => indexer.stop());
    checks.consumer = () => Promise.resolve(indexer.healthy());
    const reconciler = indexer.reconciler;
    if (reconciler) notes.reconciler = () => ({ ...reconciler.status() });
  }
  // With GITDEX_METRICS_PORT, /metrics is served there only: it can stay off the public ingress.
  const ownMetricsPort = env.GITDEX_METRICS_PORT !== undefined;
  mountHealth(app, { registry, checks, notes, metrics: !ownMetricsPort });

  const server = await listen(app, env.PORT, env.HOST);
  const url = urlOf(server);
  let metricsServer: Server | undefined;
  if (ownMetricsPort) {
    const metricsApp = express();
    metricsApp.disable('x-powered-by');
    mountHealth(metricsApp, { registry, checks: {} });
    metricsServer = await listen(metricsApp, env.GITDEX_METRICS_PORT ?? 0, env.HOST).catch(async (error: unknown) => {
      // Nothing half-started stays behind: the main port, the roles and the engines close.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const stop of stops) await stop().catch(() => undefined);
      await adapters.close();
      throw new ConfigError([{ variable: 'GITDEX_METRICS_PORT', message: `cannot serve /metrics on port ${env.GITDEX_METRICS_PORT}: ${error instanceof Error ? error.message : String(error)}` }]);
    });
  }
  const metricsUrl = metricsServer ? urlOf(metricsServer) : undefined;
  log.info({ url, ...(metricsUrl ? { metricsUrl } : {}), role, eventLog: adapters.engines.eventLog, index: adapters.engines.index }, 'gitdex listening');
  log.info(endpointsOf(url, role, metricsUrl), `gitdex ready: ${startLine(url, role, metricsUrl)}`);

  return {
    url,
    ...(metricsUrl ? { metricsUrl } : {}),
    adapters,
    async close() {
      const metrics = metricsServer;
      if (metrics) {
        metrics.closeAllConnections();
        await new Promise<void>((resolve) => metrics.close(() => resolve()));
      }
      // Requests in flight finish (a webhook being published still gets its answer);
      // idle keep-alive connections close now, and stragglers after a grace period.
      await new Promise<void>((resolve) => {
        const grace = setTimeout(() => server.closeAllConnections(), 5000);
        server.close(() => {
          clearTimeout(grace);
          resolve();
        });
        server.closeIdleConnections();
      });
      for (const stop of stops) await stop().catch((error: unknown) => log.warn(errorFields(error), 'stopping a role failed'));
      await adapters.close();
    },
  };
}

/** The audit log GITDEX_AUDIT_LOG names; a file that cannot be opened stops the start, naming the setting. */
function openAuditLog(destination: Exclude<AuditDestination, 'off'>, log: Logger): AuditLog {
  try {
    return auditLog(destination, { onError: (error) => log.error({ err: error, setting: 'GITDEX_AUDIT_LOG' }, 'the audit log cannot be written') });
  } catch (error) {
    throw new ConfigError([
      { variable: 'GITDEX_AUDIT_LOG', message: `cannot append to ${typeof destination === 'object' ? destination.file : destination}: ${error instanceof Error ? error.message : String(error)}` },
    ]);
  }
}

function listen(app: express.Express, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app);
    s.once('error', reject);
    s.listen(port, host, () => resolve(s));
  });
}

function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  return `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
}

/** Where a person finds what this role serves, for the start line. */
export function endpointsOf(url: string, role: Role, metricsUrl?: string): Record<string, string> {
  const reading = role === 'all' || role === 'reader';
  const receiving = role === 'all' || role === 'webhook';
  return {
    ...(reading ? { mcp: `${url}/mcp`, rest: `${url}/v1`, console: `${url}/` } : {}),
    ...(receiving ? { webhooks: `${url}/webhooks/github` } : {}),
    metrics: `${metricsUrl ?? url}/metrics`,
  };
}

function startLine(url: string, role: Role, metricsUrl?: string): string {
  const names: Record<string, string> = { mcp: 'MCP', rest: 'REST API', console: 'console', webhooks: 'webhooks', metrics: 'metrics' };
  return Object.entries(endpointsOf(url, role, metricsUrl))
    .map(([key, where]) => `${names[key] ?? key} ${where}`)
    .join(' · ');
}
