import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authGuard, principalOf, type Authenticate } from './auth';
import type { ReaderBodyOptions } from './body';
import { hostGuard } from './host';
import { originGuard } from './origin';
import { rateLimitGuard, throttleRefusals, type RateLimited, type RateLimiter } from './rate-limit';

/** What guards the reader's HTTP endpoints (/mcp and /v1), in the order they run. */
export interface ReaderGuardOptions {
  /** Host names answered to (DNS rebinding); undefined: no Host check. See allowedHostsFor. */
  allowedHosts?: readonly string[];
  /** Browser origins allowed besides localhost ("*" allows any). */
  allowedOrigins?: readonly string[];
  /** Who calls; without it every caller is anonymous. */
  authenticate?: Authenticate;
  /** With authenticate: requests without credentials go on as anonymous (public repositories only). */
  anonymous?: boolean;
  /** Sign-in: the protected resource metadata URL every 401 names (RFC 9728). */
  resourceMetadataUrl?: string;
  /** Per-caller request budget, shared by /mcp and /v1; undefined: unlimited. */
  limiter?: RateLimiter;
  /** Told of each request refused for the rate limit, with "principal" or "address". */
  onLimited?: (kind: string) => void;
  /** How request bodies are read (size, budgets in flight, deadline, minimum rate); defaults in body.ts. */
  body?: ReaderBodyOptions;
}

/** How each transport writes a refusal (JSON-RPC for /mcp, { error } for /v1). */
export interface Refusals {
  forbidden: (res: Response, message: string) => void;
  unauthenticated: (res: Response, message: string) => void;
  rateLimited: RateLimited;
}

/** Before anything is read: headers that cost nothing, the Host and Origin checks. */
export function entryGuards(options: ReaderGuardOptions, refuse: Refusals): RequestHandler[] {
  const headers = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
  return [headers, hostGuard(options.allowedHosts, refuse.forbidden), originGuard(options.allowedOrigins ?? [], refuse.forbidden)];
}

/** Who calls, then whether they may call now. */
export function callerGuards(options: ReaderGuardOptions, refuse: Refusals): RequestHandler[] {
  return [
    authGuard(options.authenticate, refuse.unauthenticated, {
      ...(options.anonymous ? { anonymous: true } : {}),
      ...(options.resourceMetadataUrl ? { resourceMetadataUrl: options.resourceMetadataUrl } : {}),
      throttle: throttleRefusals(options.limiter, refuse.rateLimited, options.onLimited),
    }),
    rateLimitGuard(options.limiter, principalOf, refuse.rateLimited, options.onLimited),
  ];
}
