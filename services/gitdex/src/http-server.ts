import http, { type RequestListener, type Server, type ServerOptions } from 'node:http';

/**
 * Whole-request limits at the socket, behind the body readers' own deadlines (10 s): a
 * request's headers must arrive within 10 s (GitHub gives a whole delivery 10 s), the whole
 * request within 30 s, and Node checks both every second (its default, every 30 s, would let a
 * stalled request live up to a minute past its limit; Node's own defaults are 60 s and 300 s).
 */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 } as const satisfies ServerOptions;

/** The HTTP server every role listens with. */
export function createHttpServer(app: RequestListener, timeouts: Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> = SERVER_TIMEOUTS): Server {
  return http.createServer({ ...timeouts }, app);
}
