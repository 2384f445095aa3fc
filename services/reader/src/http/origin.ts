import type { NextFunction, Request, Response } from 'express';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether a browser page at this Origin may call the reader. Requests without Origin
 * (agents, CLIs, servers) are allowed; pages are allowed from localhost and the
 * configured origins. This stops DNS rebinding: a hostile page whose name was re-pointed
 * at 127.0.0.1 still sends its own Origin.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined || origin === '') return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Refuses other origins with 403 (in the body shape `refuse` gives), and answers CORS
 * for allowed ones so browser tools (the MCP inspector, web UIs) can call.
 */
export function originGuard(allowed: readonly string[], refuse: (res: Response, message: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (!originAllowed(origin, allowed)) {
      refuse(res, `Origin ${origin} is not allowed: gitdex accepts browser requests only from localhost and the origins in GITDEX_ALLOWED_ORIGINS.`);
      return;
    }
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, Retry-After');
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
