import { createHash, timingSafeEqual } from 'node:crypto';
import { parseReaderTokenList, type ReaderTokenSpec } from '@gitdex/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../principal';

/** Finds out who calls; null refuses the request (401). Pluggable: bearer tokens, mTLS headers, a gateway's JWT. */
export type Authenticate = (req: Request) => Principal | null | Promise<Principal | null>;

/** res.locals key under which the guard leaves the principal for the handlers. */
export const PRINCIPAL = 'gitdexPrincipal';

export function principalOf(res: Response): Principal | null {
  return (res.locals[PRINCIPAL] as Principal | null | undefined) ?? null;
}

export interface AuthGuardOptions {
  /**
   * Requests that carry no credentials at all (no Authorization header) go on as anonymous
   * callers, who read public repositories only; credentials that are wrong are still refused.
   * Default false: with an authenticate hook every request needs credentials.
   */
  anonymous?: boolean;
  /** Asked before a refusal: true when it answered the request itself (429 for a caller that keeps failing). */
  throttle?: (req: Request, res: Response) => boolean;
  /**
   * Where a client learns how to sign in (RFC 9728): the protected resource metadata URL,
   * named in every 401's WWW-Authenticate. Omitted: a plain Bearer challenge.
   */
  resourceMetadataUrl?: string;
}

/** Runs the authenticate hook, if any: a refused request gets 401 with a Bearer challenge. */
export function authGuard(authenticate: Authenticate | undefined, refuse: (res: Response, message: string) => void, options: AuthGuardOptions = {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!authenticate || (options.anonymous && !hasCredentials(req))) {
      res.locals[PRINCIPAL] = null;
      next();
      return;
    }
    Promise.resolve()
      .then(() => authenticate(req))
      .then((principal) => {
        if (!principal) {
          if (options.throttle?.(req, res)) return;
          res.setHeader('WWW-Authenticate', challenge(options.resourceMetadataUrl, hasCredentials(req)));
          refuse(
            res,
            hasCredentials(req)
              ? 'The bearer token is not one this gitdex accepts (the token itself is never shown or logged). Check the token, or ask whoever runs gitdex for one.'
              : 'Authentication required: send "Authorization: Bearer <token>" with a token this gitdex accepts.',
          );
          return;
        }
        res.locals[PRINCIPAL] = principal;
        next();
      })
      .catch(next);
  };
}

/**
 * With sign-in, RFC 6750 §3 and RFC 9728 §5.1: a presented token that failed is
 * `invalid_token` (the client refreshes or signs in again), and every 401 names the resource
 * metadata. Without sign-in, the plain challenge static-token callers have always had.
 */
function challenge(resourceMetadataUrl: string | undefined, presented: boolean): string {
  if (!resourceMetadataUrl) return 'Bearer realm="gitdex"';
  return ['Bearer realm="gitdex"', ...(presented ? ['error="invalid_token"'] : []), `resource_metadata="${resourceMetadataUrl}"`].join(', ');
}

function hasCredentials(req: Request): boolean {
  return req.headers.authorization !== undefined && req.headers.authorization.trim() !== '';
}

/**
 * An authenticate hook for static bearer tokens, compared in constant time. `tokens` maps
 * each token to the principal it stands for.
 */
export function bearerTokens(tokens: Iterable<{ token: string; principal: Principal }>): Authenticate {
  const known = [...tokens].map((t) => ({ digest: digest(t.token), principal: t.principal }));
  if (known.length === 0) throw new TypeError('bearerTokens: give at least one token');
  return (req) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return null;
    const presented = digest(match[1] as string);
    let found: Principal | null = null;
    // Compare with every token, so the time taken does not tell which one matched.
    for (const entry of known) if (timingSafeEqual(presented, entry.digest)) found = entry.principal;
    return found;
  };
}

/**
 * Configured tokens (contracts' ReaderTokenSpec, from GITDEX_READER_TOKENS or its file) as
 * bearerTokens entries. The principal is { id: name }, plus `repositories` (the patterns of
 * private repositories it may read, for scopedAccess) when it has any.
 */
export function readerTokenEntries(specs: readonly ReaderTokenSpec[]): { token: string; principal: Principal }[] {
  return specs.map((spec) => ({ token: spec.token, principal: spec.repositories.length > 0 ? { id: spec.name, repositories: [...spec.repositories] } : { id: spec.name } }));
}

/**
 * GITDEX_READER_TOKENS as text → bearerTokens entries: `name:token=owner/*,owner/name;…`, or
 * the older `alice:tok1,bob:tok2` (or bare tokens), which read public repositories only.
 * Throws a TypeError naming what is wrong (never a token).
 */
export function parseReaderTokens(text: string): { token: string; principal: Principal }[] {
  const { tokens, problems } = parseReaderTokenList(text);
  if (problems.length > 0) throw new TypeError(`reader tokens: ${problems.join('; ')}`);
  return readerTokenEntries(tokens);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
