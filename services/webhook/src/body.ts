import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BodyError, createBodyReader, type BodyReader, type BodyReaderOptions } from '@gitdex/observability';

/** GitHub caps webhook payloads at 25 MB; a larger declared length is refused unread. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

/** How webhook bodies are read; each has a default below. */
export type WebhookBodyOptions = Partial<BodyReaderOptions>;

const DEFAULTS: BodyReaderOptions = {
  maxBytes: MAX_WEBHOOK_BYTES,
  // Two full-size deliveries at once; one address (one sender) at most one and a bit.
  maxBytesInFlight: 64 * 1024 * 1024,
  maxBytesPerAddress: 32 * 1024 * 1024,
  // GitHub drops a delivery it has no answer to after 10 s, so a body still arriving then is
  // one GitHub no longer waits for: its bytes are let go.
  timeoutMs: 10_000,
  // GitHub sends a delivery in one go; a body trickling in slower than this after 2 s is
  // holding memory and a connection, not delivering.
  minBytesPerSecond: 16 * 1024,
  graceMs: 2_000,
};

export function webhookBodyReader(options: WebhookBodyOptions = {}): BodyReader {
  return createBodyReader({ ...DEFAULTS, ...options });
}

/**
 * The express adapter: reads the raw body (never inflated) into req.body, keeps its bytes
 * counted until the answer is sent, and answers a refused body itself, closing the
 * connection so the rest of it is never read.
 */
export function webhookBody(reader: BodyReader, onRefused: (error: BodyError, req: Request) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    reader.read(req).then(
      (body) => {
        res.once('close', body.release);
        req.body = body.bytes;
        next();
      },
      (error: unknown) => {
        if (!(error instanceof BodyError)) {
          next(error);
          return;
        }
        onRefused(error, req);
        if (res.headersSent) return;
        res
          .status(error.status)
          .set({ Connection: 'close', ...(error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : {}) })
          .json({ error: error.code, message: error.message });
      },
    );
  };
}
