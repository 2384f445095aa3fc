import { mountHealth } from '@gitdex/observability';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { Registry } from 'prom-client';
import { resolveDeps, type ReaderDeps, type ReaderOptions } from './deps';
import type { Authenticate } from './http/auth';
import { createMcpRouter } from './mcp/http';
import { readerMetrics } from './metrics';
import { createRestRouter } from './rest/router';

export interface ReaderHttpOptions {
  /** Where the tool metrics go (the app serves it at /metrics); a fresh one when omitted. */
  registry?: Registry;
  /** Browser origins allowed besides localhost (GITDEX_ALLOWED_ORIGINS); "*" allows any. */
  allowedOrigins?: readonly string[];
  /** Who calls (e.g. bearerTokens(...)); without it every caller is anonymous. */
  authenticate?: Authenticate;
}

/**
 * The reader's HTTP surface as one router: MCP at /mcp and the REST API at /v1. The
 * single-process mode mounts it beside the other services' routers in one app.
 */
export function createReaderRouter(options: ReaderOptions | ReaderDeps, http: ReaderHttpOptions = {}): Router {
  const deps = resolveDeps(options);
  const observe = readerMetrics(http.registry ?? new Registry());
  const shared = {
    observe,
    ...(http.allowedOrigins ? { allowedOrigins: http.allowedOrigins } : {}),
    ...(http.authenticate ? { authenticate: http.authenticate } : {}),
  };
  const router = express.Router();
  router.use(createMcpRouter(deps, shared));
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
    deps.logger?.error({ err: error }, 'reader: unhandled HTTP error');
    if (!res.headersSent) res.status(500).json({ error: { code: 'INTERNAL', message: 'Internal error; it was logged. Retry.' } });
  });
  return app;
}
