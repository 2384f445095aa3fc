import type { ToolName } from '@gitdex/contracts';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ReaderDeps } from '../deps';
import { principalOf } from '../http/auth';
import { noBody } from '../http/body';
import { callerGuards, entryGuards, type ReaderGuardOptions, type Refusals } from '../http/guards';
import { asToolError, callTool, type ToolObserver } from '../tools/call-tool';
import { HTTP_STATUS, ToolError } from '../tool-error';
import { openApiDocument } from './openapi';
import { listParam, queryArgs, searchArgs } from './query';
import { changesRoute } from './changes-route';
import { symbolArgs } from './symbol-query';

export interface RestOptions extends ReaderGuardOptions {
  observe?: ToolObserver;
}

/** Transport refusals in the REST error shape; RATE_LIMITED comes with Retry-After. */
const REST_REFUSALS: Refusals = {
  forbidden: (res, message) => res.status(403).json({ error: { code: 'FORBIDDEN', message } }),
  unauthenticated: (res, message) => res.status(401).json({ error: { code: 'UNAUTHENTICATED', message } }),
  rateLimited: (res, retryAfterSeconds, message) => res.status(429).json({ error: { code: 'RATE_LIMITED', message, retry_after_seconds: retryAfterSeconds } }),
};

/** Seconds a client should wait before retrying when the index is unavailable. */
const RETRY_AFTER_SECONDS = 5;

export function sendError(res: Response, error: ToolError): void {
  if (error.code === 'UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.status(HTTP_STATUS[error.code]).json({ error: { code: error.code, message: error.message, ...(error.suggestions.length > 0 ? { suggestions: error.suggestions } : {}) } });
}

/** The REST API under /v1: the tools as plain JSON GETs, errors as { error: { code, message } }. */
export function createRestRouter(deps: ReaderDeps, options: RestOptions = {}): Router {
  const router = express.Router();
  router.use(
    '/v1',
    ...entryGuards(options, REST_REFUSALS),
    noBody((res, { message }) => sendError(res, new ToolError('INVALID_ARGUMENT', message))),
  );
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.use('/v1', ...callerGuards(options, REST_REFUSALS));

  const serve = (tool: ToolName, args: (req: Request) => Record<string, unknown>) => (req: Request, res: Response) => {
    let input: Record<string, unknown>;
    try {
      input = args(req);
    } catch (error) {
      sendError(res, asToolError(deps, tool, error));
      return;
    }
    const address = req.ip ?? req.socket.remoteAddress;
    // A client that goes away ends its call (a wait for min_commit above all).
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) gone.abort();
    });
    callTool(deps, tool, input, principalOf(res), { transport: 'rest', signal: gone.signal, ...(address !== undefined ? { address } : {}), ...(options.observe ? { observe: options.observe } : {}) })
      .then((answer) => {
        res.json(answer.structured);
      })
      .catch((error: unknown) => sendError(res, asToolError(deps, tool, error)));
  };
  const repository = (req: Request) => `${String(req.params.owner)}/${String(req.params.repo)}`;
  const wildcard = (value: unknown) => (Array.isArray(value) ? value.join('/') : typeof value === 'string' ? value : '');

  router.get(
    '/v1/repositories',
    serve('repositories_state', (req) => {
      const { repository: one, repositories: many, ...rest } = req.query;
      const names = [...(listParam(one) ?? []), ...(listParam(many) ?? [])];
      return { ...queryArgs(rest), ...(one !== undefined || many !== undefined ? { repositories: names } : {}) };
    }),
  );
  router.get(
    '/v1/repositories/:owner/:repo',
    serve('repository_overview', (req) => ({ ...queryArgs(req.query), repository: repository(req) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/tree',
    serve('list_files', (req) => ({ ...queryArgs(req.query), repository: repository(req) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/tree/*folder',
    serve('list_files', (req) => ({ ...queryArgs(req.query), repository: repository(req), folder: wildcard(req.params.folder) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/files/*path',
    serve('read_file', (req) => ({ ...queryArgs(req.query), repository: repository(req), path: wildcard(req.params.path) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/suggest',
    serve('suggest_paths', (req) => ({ ...queryArgs(req.query, { q: 'query' }), repository: repository(req) })),
  );
  router.get('/v1/repositories/:owner/:repo/changes', changesRoute(deps, sendError));
  router.get(
    '/v1/repositories/:owner/:repo/compare',
    serve('compare', (req) => ({ ...queryArgs(req.query), repository: repository(req) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/blame/*path',
    serve('blame', (req) => ({ ...queryArgs(req.query), repository: repository(req), path: wildcard(req.params.path) })),
  );
  router.get(
    '/v1/search',
    serve('search_code', (req) => searchArgs(req.query)),
  );
  router.get(
    '/v1/repositories/:owner/:repo/search',
    serve('search_code', (req) => ({ ...searchArgs(req.query), repository: repository(req) })),
  );
  router.get(
    '/v1/symbols',
    serve('find_symbol', (req) => symbolArgs(req.query)),
  );
  router.get(
    '/v1/references',
    serve('find_references', (req) => symbolArgs(req.query)),
  );
  router.get(
    '/v1/repositories/:owner/:repo/outline/*path',
    serve('file_outline', (req) => ({ ...queryArgs(req.query), repository: repository(req), path: wildcard(req.params.path) })),
  );
  router.get(
    '/v1/repositories/:owner/:repo/commits',
    serve('list_commits', (req) => ({ ...queryArgs(req.query), repository: repository(req) })),
  );
  router.use('/v1', (req, res) => {
    sendError(res, new ToolError('NOT_FOUND', `No endpoint ${req.method} ${req.originalUrl.split('?')[0]}: see /v1/openapi.json for what this API serves.`));
  });
  // A request express could not read (a path segment that is not percent-encoded UTF-8, such
  // as %ff): the caller's mistake, answered in the API's error shape rather than as a 500.
  router.use('/v1', (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
    if (res.headersSent || typeof status !== 'number' || status < 400 || status >= 500) {
      next(error);
      return;
    }
    const message =
      error instanceof URIError
        ? 'The URL is not valid: a part of its path is not percent-encoded UTF-8. Encode each path segment (encodeURIComponent) and send it again.'
        : 'The request could not be read; check its URL and headers.';
    sendError(res, new ToolError('INVALID_ARGUMENT', message));
  });
  return router;
}
