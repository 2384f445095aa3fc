import type { ToolName } from '@gitdex/contracts';
import express, { type Request, type Response, type Router } from 'express';
import type { ReaderDeps } from '../deps';
import { authGuard, principalOf, type Authenticate } from '../http/auth';
import { originGuard } from '../http/origin';
import { asToolError, callTool, type ToolObserver } from '../tools/call-tool';
import { HTTP_STATUS, ToolError } from '../tool-error';
import { openApiDocument } from './openapi';
import { listParam, queryArgs } from './query';

export interface RestOptions {
  allowedOrigins?: readonly string[];
  authenticate?: Authenticate;
  observe?: ToolObserver;
}

/** Seconds a client should wait before retrying when the index is unavailable. */
const RETRY_AFTER_SECONDS = 5;

export function sendError(res: Response, error: ToolError): void {
  if (error.code === 'UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.status(HTTP_STATUS[error.code]).json({ error: { code: error.code, message: error.message, ...(error.suggestions.length > 0 ? { suggestions: error.suggestions } : {}) } });
}

/** The REST API under /v1: the tools as plain JSON GETs, errors as { error: { code, message } }. */
export function createRestRouter(deps: ReaderDeps, options: RestOptions = {}): Router {
  const router = express.Router();
  const refuse = (status: number, code: 'FORBIDDEN' | 'UNAUTHENTICATED') => (res: Response, message: string) => {
    res.status(status).json({ error: { code, message } });
  };
  router.use('/v1', originGuard(options.allowedOrigins ?? [], refuse(403, 'FORBIDDEN')));
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.use('/v1', authGuard(options.authenticate, refuse(401, 'UNAUTHENTICATED')));

  const serve = (tool: ToolName, args: (req: Request) => Record<string, unknown>) => (req: Request, res: Response) => {
    let input: Record<string, unknown>;
    try {
      input = args(req);
    } catch (error) {
      sendError(res, asToolError(deps, tool, error));
      return;
    }
    callTool(deps, tool, input, principalOf(res), { transport: 'rest', ...(options.observe ? { observe: options.observe } : {}) })
      .then((answer) => {
        res.json(answer.structured);
      })
      .catch((error: unknown) => sendError(res, asToolError(deps, tool, error)));
  };
  const repository = (req: Request) => `${String(req.params.owner)}/${String(req.params.repo)}`;
  const wildcard = (value: unknown) => (Array.isArray(value) ? value.join('/') : String(value ?? ''));

  router.get(
    '/v1/repositories',
    serve('repositories_state', (req) => {
      const { repository: one, repositories: many, ...rest } = req.query;
      const names = [...(listParam(one) ?? []), ...(listParam(many) ?? [])];
      return { ...queryArgs(rest), ...(one !== undefined || many !== undefined ? { repositories: names } : {}) };
    }),
  );
  router.get('/v1/repositories/:owner/:repo', serve('repository_overview', (req) => ({ ...queryArgs(req.query), repository: repository(req) })));
  router.get('/v1/repositories/:owner/:repo/tree', serve('list_files', (req) => ({ ...queryArgs(req.query), repository: repository(req) })));
  router.get('/v1/repositories/:owner/:repo/tree/*folder', serve('list_files', (req) => ({ ...queryArgs(req.query), repository: repository(req), folder: wildcard(req.params.folder) })));
  router.get('/v1/repositories/:owner/:repo/files/*path', serve('read_file', (req) => ({ ...queryArgs(req.query), repository: repository(req), path: wildcard(req.params.path) })));
  router.get('/v1/repositories/:owner/:repo/suggest', serve('suggest_paths', (req) => ({ ...queryArgs(req.query, { q: 'query' }), repository: repository(req) })));
  router.use('/v1', (req, res) => {
    sendError(res, new ToolError('NOT_FOUND', `No endpoint ${req.method} ${req.originalUrl.split('?')[0]}: see /v1/openapi.json for what this API serves.`));
  });
  return router;
}
