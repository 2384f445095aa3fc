// Optional token authentication: "Authorization: token X" or "Bearer X".
import type { Request, RequestHandler } from 'express';
import { sendError } from './http';

export interface AuthConfig {
  /** When set, every API request must present this token (or one minted for an installation). */
  token?: string | undefined;
  /** Installation access tokens handed out by POST /app/installations/{id}/access_tokens. */
  mintedTokens: Set<string>;
}

export function presentedToken(req: Request): string | null {
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  return match?.[1] ?? null;
}

/** A JSON web token (as GitHub Apps use for /app endpoints); its signature is not checked. */
export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}

/** Marks res.locals.authenticated; answers 401 Bad credentials when a configured token is not met. */
export function authMiddleware(config: () => AuthConfig, options: { allowJwt?: boolean | undefined } = {}): RequestHandler {
  return (req, res, next) => {
    const { token, mintedTokens } = config();
    const presented = presentedToken(req);
    const ok = presented !== null && (presented === token || mintedTokens.has(presented) || (options.allowJwt === true && looksLikeJwt(presented)));
    if (token === undefined) {
      res.locals.authenticated = presented !== null;
      return next();
    }
    if (!ok) return sendError(res, 401, 'Bad credentials');
    res.locals.authenticated = true;
    next();
  };
}
