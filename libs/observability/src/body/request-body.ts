import type { IncomingMessage } from 'node:http';
import { BodyBudget } from './budget';
import { readBody, type BodyClock, type BodyLimits, type BodyRead } from './read-body';

/** A service's body rules: the limits, and the budget (given, or made from the two sizes). */
export interface BodyReaderOptions extends BodyLimits {
  /** Body bytes all requests together may hold (ignored when budget is given). */
  maxBytesInFlight: number;
  /** Body bytes one address's requests may hold (ignored when budget is given). */
  maxBytesPerAddress: number;
  /** A budget to count in (shared between readers, or watched by a test). */
  budget?: BodyBudget;
  clock?: BodyClock;
}

export interface BodyReader {
  readonly budget: BodyBudget;
  /** Reads a Node request's body under the reader's limits (rejects with a BodyError). */
  read(req: IncomingMessage): Promise<BodyRead>;
}

/** One budget and one set of limits for every body a service reads. */
export function createBodyReader(options: BodyReaderOptions): BodyReader {
  const budget = options.budget ?? new BodyBudget({ maxBytes: options.maxBytesInFlight, maxBytesPerAddress: options.maxBytesPerAddress });
  const { maxBytes, timeoutMs, minBytesPerSecond, graceMs } = options;
  return {
    budget,
    read: (req) =>
      readBody(req, {
        maxBytes,
        timeoutMs,
        minBytesPerSecond,
        graceMs,
        budget,
        // The socket's address: a forwarded-for header is anyone's text.
        address: req.socket.remoteAddress ?? 'unknown',
        contentEncoding: req.headers['content-encoding'],
        contentLength: req.headers['content-length'],
        ...(options.clock ? { clock: options.clock } : {}),
      }),
  };
}
