// Shared pieces of API routes: the middleware chain (auth, rate limit, faults) and repo loading.
import type { Request, RequestHandler, Response } from 'express';
import { authMiddleware } from './auth';
import { type StandInContext } from './context';
import { faultMiddleware } from './faults';
import { isEmptyRepo } from './git-refs';
import { emptyRepo, HttpError, notFound, requestBase, sendError, sendJson } from './http';
import { primaryRateLimitMessage } from './rate-limit';
import type { RepoHandle } from './repo-store';

function rateLimitMiddleware(ctx: StandInContext): RequestHandler {
  return (req, res, next) => {
    if (!ctx.rateLimiter.consume()) {
      ctx.rateLimiter.setHeaders(res);
      const who = req.get('authorization') ? 'installation ID 1' : (req.ip ?? '127.0.0.1');
      return sendError(res, 403, primaryRateLimitMessage(who), 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api');
    }
    ctx.rateLimiter.setHeaders(res);
    next();
  };
}

export interface ChainOptions {
  auth?: boolean;
  rateLimit?: boolean;
  /** Accept GitHub App JWTs (for /app endpoints). */
  allowJwt?: boolean;
}

/** Middleware in front of every API route: authentication, rate limit, injected faults. */
export function apiChain(ctx: StandInContext, options: ChainOptions = {}): RequestHandler[] {
  const chain: RequestHandler[] = [];
  if (options.auth !== false) {
    chain.push(authMiddleware(() => ({ token: ctx.config.token, mintedTokens: ctx.mintedTokens }), { allowJwt: options.allowJwt }));
  }
  if (options.rateLimit !== false) chain.push(rateLimitMiddleware(ctx));
  chain.push(faultMiddleware(ctx.faults, { rateLimiter: ctx.rateLimiter, resetAfterSeconds: () => ctx.config.rateLimitResetSeconds, sleep: ctx.sleep }));
  return chain;
}

/** Sends JSON with an ETag; a 304 answer gives the rate-limit unit back like GitHub. */
export function ok(ctx: StandInContext, req: Request, res: Response, body: unknown, status = 200): void {
  sendJson(req, res, status, body, () => {
    ctx.rateLimiter.refund();
    ctx.rateLimiter.setHeaders(res);
  });
}

const REPO_DOCS = 'https://docs.github.com/rest/repos/repos#get-a-repository';

/**
 * The repository named by :owner/:repo. Private repositories are hidden (404) from
 * unauthenticated requests; a renamed repository's old name answers 301 to /repositories/{id}.
 */
export async function loadRepo(ctx: StandInContext, req: Request, res: Response): Promise<RepoHandle> {
  const owner = String(req.params.owner);
  const name = String(req.params.repo);
  const repo = await ctx.store.find(owner, name);
  if (repo) {
    if (repo.private && res.locals.authenticated !== true) throw notFound(REPO_DOCS);
    return repo;
  }
  const id = ctx.store.redirectFor(owner, name);
  if (id !== null && (await ctx.store.findById(id))) {
    const rest = req.originalUrl.replace(/^\/repos\/[^/]+\/[^/?]+/, '');
    const location = `${requestBase(req)}/repositories/${id}${rest}`;
    throw new HttpError(301, 'Moved Permanently', 'https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects', { location });
  }
  throw notFound(REPO_DOCS);
}

/** 409 "Git Repository is empty." for repos without branches, else the given error. */
export async function emptyOr(repo: RepoHandle, error: HttpError): Promise<HttpError> {
  return (await isEmptyRepo(repo.dir)) ? emptyRepo() : error;
}

/**
 * Rewrites /repositories/{id}/... to /repos/{owner}/{repo}/... so every repository route
 * also answers by id (the request log keeps the /repos pattern).
 */
export function repositoriesById(ctx: StandInContext): RequestHandler {
  return async (req, _res, next) => {
    const match = /^\/repositories\/(\d+)(\/[^?]*)?(\?.*)?$/.exec(req.url);
    if (req.method === 'GET' && match) {
      const repo = await ctx.store.findById(Number(match[1]));
      if (repo) req.url = `/repos/${repo.owner}/${repo.name}${match[2] ?? ''}${match[3] ?? ''}`;
    }
    next();
  };
}
