import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../deps';

/** Finds out who calls; null refuses the request (401). Pluggable: bearer tokens, mTLS headers, a gateway's JWT. */
export type Authenticate = (req: Request) => Principal | null | Promise<Principal | null>;

/** res.locals key under which the guard leaves the principal for the handlers. */
export const PRINCIPAL = 'gitdexPrincipal';

export function principalOf(res: Response): Principal | null {
  return (res.locals[PRINCIPAL] as Principal | null | undefined) ?? null;
}

/** Runs the authenticate hook, if any: a refused request gets 401 with a Bearer challenge. */
export function authGuard(authenticate: Authenticate | undefined, refuse: (res: Response, message: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!authenticate) {
      res.locals[PRINCIPAL] = null;
      next();
      return;
    }
    Promise.resolve()
      .then(() => authenticate(req))
      .then((principal) => {
        if (!principal) {
          res.setHeader('WWW-Authenticate', 'Bearer realm="gitdex"');
          refuse(res, 'Authentication required: send "Authorization: Bearer <token>" with a token this gitdex accepts.');
          return;
        }
        res.locals[PRINCIPAL] = principal;
        next();
      })
      .catch(next);
  };
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

/** "alice:tok1,bob:tok2" (or bare tokens) as GITDEX_READER_TOKENS holds them → bearerTokens entries. */
export function parseReaderTokens(text: string): { token: string; principal: Principal }[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, i) => {
      const colon = part.indexOf(':');
      return colon > 0 ? { token: part.slice(colon + 1), principal: { id: part.slice(0, colon) } } : { token: part, principal: { id: `token-${i + 1}` } };
    });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
