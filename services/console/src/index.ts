import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { CONSOLE_CSS, INDEX_HTML, NOT_BUILT_HTML } from './page';

export { CONSOLE_CSS, INDEX_HTML } from './page';

export interface ConsoleRouterOptions {
  /** Folder of the compiled browser scripts (default: this package's dist/public). */
  publicDir?: string;
}

/** Where `tsc -b` puts the browser scripts, from src/ (tests) and from dist/ (built) alike. */
export const DEFAULT_PUBLIC_DIR = join(__dirname, '..', 'dist', 'public');

/**
 * The page may load only its own scripts and styles and call only its own origin (/v1);
 * it cannot be framed, and links out (to GitHub) send no referrer.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

function sendText(type: string, text: string, status = 200) {
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  return (req: Request, res: Response) => {
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', etag);
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.status(status).type(type).send(text);
  };
}

/**
 * The web console: the page at `/`, its scripts and style sheet under `/console/`. The page
 * reads everything through the REST API under /v1 of the same origin (with the reader's
 * bearer token when the user gives one), so mount it beside createReaderRouter(...):
 *
 *   app.use(createConsoleRouter());
 *
 * The page itself holds nothing private: it is served without authentication.
 */
export function createConsoleRouter(options: ConsoleRouterOptions = {}): Router {
  const publicDir = options.publicDir ?? DEFAULT_PUBLIC_DIR;
  const built = existsSync(join(publicDir, 'main.js'));
  const router = express.Router();
  router.get('/', built ? sendText('html', INDEX_HTML) : sendText('html', NOT_BUILT_HTML, 503));
  router.get('/console', (_req, res) => res.redirect(301, './'));
  router.get('/console/console.css', sendText('css', CONSOLE_CSS));
  router.use(
    '/console',
    express.static(publicDir, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      cacheControl: true,
      maxAge: 0,
      setHeaders: (res) => {
        securityHeaders(res);
        res.setHeader('Cache-Control', 'no-cache');
      },
    }),
  );
  return router;
}
