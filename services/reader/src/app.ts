import { mountHealth } from '@gitdex/observability';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { Registry } from 'prom-client';
import { resolveDeps, type ReaderDeps, type ReaderOptions } from './deps';
import type { Authenticate } from './http/auth';
import type { ReaderBodyOptions } from './http/body';
import { rateLimitedCounter, RateLimiter, type RateLimitOptions } from './http/rate-limit';
import { createMcpRouter } from './mcp/http';
import type { McpSessions } from './mcp/sessions';
import { callerMetrics, DEFAULT_CALLER_LABELS } from './caller-metrics';
import { readerMetrics } from './metrics';
import { watcherMetrics } from './waiting/metrics';
import { createRestRouter } from './rest/router';
import type { ToolObserver } from './tools/call-tool';

export interface ReaderHttpOptions {
  /** Where the tool metrics go (the app serves it at /metrics); a fresh one when omitted. */
  registry?: Registry;
  /** Browser origins allowed besides localhost (GITDEX_ALLOWED_ORIGINS); "*" allows any. */
  allowedOrigins?: readonly string[];
  /** Who calls (e.g. bearerTokens(...)); without it every caller is anonymous. */
  authenticate?: Authenticate;
  /**
   * With authenticate: requests without an Authorization header go on as anonymous callers
   * (public repositories only) instead of 401. Wrong credentials are refused either way.
   */
  anonymous?: boolean;
  /** Sign-in with GitHub: the protected resource metadata URL named in every 401 (RFC 9728). */
  resourceMetadataUrl?: string;
  /** Host names /mcp and /v1 answer to, against DNS rebinding (allowedHostsFor builds it); omitted: any. */
  allowedHosts?: readonly string[] | undefined;
  /** Per-caller budget shared by /mcp and /v1 (per token, or per address when anonymous); omitted: unlimited. */
  rateLimit?: RateLimitOptions | RateLimiter;
  /** Largest MCP request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Told of every tool call after the metrics: the audit log (auditLog in audit.ts); omitted: none. */
  audit?: ToolObserver;
  /** Callers named in gitdex_reader_caller_calls_total, the rest counted as "other" (default 50). */
  callerLabels?: number;
  /** How request bodies are read: budgets in flight (all and per address), deadline, minimum rate (http/body.ts). */
  body?: ReaderBodyOptions;
  /** Where MCP sessions (resource subscriptions) are kept; default: a store of the router's own. */
  sessions?: McpSessions;
}

/**
 * The reader's HTTP surface as one router: MCP at /mcp and the REST API at /v1. The
 * single-process mode mounts it beside the other services' routers in one app.
 */
export function createReaderRouter(options: ReaderOptions | ReaderDeps, http: ReaderHttpOptions = {}): Router {
  const deps = resolveDeps(options);
  const registry = http.registry ?? new Registry();
  const metrics = readerMetrics(registry);
  const perCaller = callerMetrics(registry, http.callerLabels ?? DEFAULT_CALLER_LABELS);
  watcherMetrics(registry, deps.watchers);
  const audit = http.audit;
  const observe: ToolObserver = (call) => {
    metrics(call);
    perCaller(call);
    audit?.(call);
  };
  const limiter = http.rateLimit === undefined ? undefined : http.rateLimit instanceof RateLimiter ? http.rateLimit : new RateLimiter(http.rateLimit);
  const shared = {
    observe,
    ...(http.allowedOrigins ? { allowedOrigins: http.allowedOrigins } : {}),
    ...(http.allowedHosts ? { allowedHosts: http.allowedHosts } : {}),
    ...(http.authenticate ? { authenticate: http.authenticate } : {}),
    ...(http.anonymous ? { anonymous: true } : {}),
    ...(http.resourceMetadataUrl ? { resourceMetadataUrl: http.resourceMetadataUrl } : {}),
    ...(limiter ? { limiter, onLimited: rateLimitedCounter(registry) } : {}),
    ...(http.body ? { body: http.body } : {}),
  };
  const router = express.Router();
  router.use(createMcpRouter(deps, { ...shared, ...(http.maxBodyBytes ? { maxBodyBytes: http.maxBodyBytes } : {}), ...(http.sessions ? { sessions: http.sessions } : {}) }));
  router.use(createRestRouter(deps, shared));
  return router;
}

/** The reader as its own service: /mcp, /v1, /healthz, /readyz (the index answers) and /metrics. */
export function createReaderApp(options: ReaderOptions | ReaderDeps, http: ReaderHttpOptions = {}): Express {
  const deps = resolveDeps(options);
  const registry = http.registry ?? new Registry();
  const app = express();
  app.disable('x-powered-by');
  app.use(createReaderRouter(deps, { ...http, registry }));
  mountHealth(app, { registry, checks: { index: () => deps.index.ping() } });
  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: `No endpoint ${req.method} ${req.path}: the reader serves /mcp, /v1 (see /v1/openapi.json), /healthz, /readyz and /metrics.` } });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown } | null)?.status;
    // A request that could not be read (bad encoding, a body where none belongs) is the caller's; anything else is a bug.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      if (!res.headersSent) res.status(status).json({ error: { code: 'INVALID_ARGUMENT', message: 'The request could not be read; check its URL, headers and body.' } });
      return;
    }
    deps.logger?.error({ err: error }, 'reader: unhandled HTTP error');
    if (!res.headersSent) res.status(500).json({ error: { code: 'INTERNAL', message: 'Internal error; it was logged. Retry.' } });
  });
  return app;
}
