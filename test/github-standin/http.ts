// Response helpers: JSON with ETag/304, GitHub error bodies, request ids, redirects.
import { createHash, randomBytes } from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

export const DOCS_URL = 'https://docs.github.com/rest';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly documentationUrl = DOCS_URL,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (docs?: string): HttpError => new HttpError(404, 'Not Found', docs);
export const emptyRepo = (): HttpError => new HttpError(409, 'Git Repository is empty.', 'https://docs.github.com/rest/git');

/** Base url of the server as the client reached it (used for Link headers and redirects). */
export function requestBase(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/** Joins an express 5 wildcard parameter (`*name` yields decoded segments). */
export function wildcard(value: unknown): string {
  if (Array.isArray(value)) return value.join('/');
  return typeof value === 'string' ? value : '';
}

export function errorBody(status: number, message: string, documentationUrl = DOCS_URL): Record<string, string> {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

/** Called when a 304 is answered, so the caller can refund the rate limit like GitHub does. */
export type NotModifiedHook = (res: Response) => void;

export function sendJson(req: Request, res: Response, status: number, body: unknown, onNotModified?: NotModifiedHook): void {
  const text = JSON.stringify(body);
  const etag = `W/"${createHash('sha256').update(text).digest('hex')}"`;
  res.setHeader('etag', etag);
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  res.setHeader('vary', 'Accept, Authorization, Cookie, X-GitHub-OTP');
  const ifNoneMatch = req.get('if-none-match');
  if (status === 200 && ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).some((t) => t === etag || t === '*' || `W/${t}` === etag)) {
    onNotModified?.(res);
    res.status(304).end();
    return;
  }
  res.status(status).setHeader('content-type', 'application/json; charset=utf-8');
  res.send(text);
}

export function sendError(res: Response, status: number, message: string, documentationUrl?: string): void {
  res.status(status).setHeader('content-type', 'application/json; charset=utf-8');
  res.send(JSON.stringify(errorBody(status, message, documentationUrl)));
}

/** GitHub-looking request id, e.g. "C0DE:1A2B:3C4D5E:6F7A8B:65F0A1B2". */
export function requestId(): string {
  const hex = (n: number): string => randomBytes(n).toString('hex').toUpperCase();
  return `${hex(2)}:${hex(2)}:${hex(3)}:${hex(3)}:${Math.floor(Date.now() / 1000)
    .toString(16)
    .toUpperCase()}`;
}

export const githubHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('x-github-request-id', requestId());
  res.setHeader('x-github-media-type', 'github.v3; format=json');
  res.setHeader('x-github-api-version-selected', '2022-11-28');
  next();
};

export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof HttpError) {
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    sendError(res, err.status, err.message, err.documentationUrl);
    return;
  }
  const status = typeof (err as { status?: unknown }).status === 'number' ? (err as { status: number }).status : 500;
  sendError(res, status, status === 500 ? `Server Error: ${(err as Error).message}` : (err as Error).message);
};
