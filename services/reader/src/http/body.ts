import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BodyError, createBodyReader, type BodyReader, type BodyReaderOptions } from '@gitdex/observability';

/** How the reader reads request bodies; each has a default below. */
export type ReaderBodyOptions = Partial<BodyReaderOptions>;

const DEFAULTS: BodyReaderOptions = {
  // A JSON-RPC message of gitdex's tools is a few hundred bytes; 1 MiB leaves room for any.
  maxBytes: 1024 * 1024,
  maxBytesInFlight: 32 * 1024 * 1024,
  // Callers behind one proxy share an address: room for four largest bodies at once.
  maxBytesPerAddress: 4 * 1024 * 1024,
  // An agent sends its request in one go; a body that takes longer holds a connection for nothing.
  timeoutMs: 10_000,
  minBytesPerSecond: 4 * 1024,
  graceMs: 2_000,
};

export function readerBodyReader(options: ReaderBodyOptions = {}): BodyReader {
  return createBodyReader({ ...DEFAULTS, ...options });
}

/** A body refused before the endpoint saw it, for the transport to write in its own shape. */
export interface BodyRefusal {
  status: number;
  code: string;
  message: string;
}
export type RefuseBody = (res: Response, refusal: BodyRefusal) => void;

/** The media type without its parameters, as the MCP SDK compares it. */
const essence = (contentType: string | undefined) => (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
const charsetOf = (contentType: string | undefined) => /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();

/**
 * JSON request bodies (MCP's POST /mcp): application/json in UTF-8 only, read by the shared
 * body reader (never inflated, counted as received, under a deadline), parsed into req.body.
 * The bytes stay counted until the answer is sent. A refusal closes the connection, so the
 * rest of a refused body is never read.
 */
export function jsonBody(reader: BodyReader, refuse: RefuseBody): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const refuseClosing = (refusal: BodyRefusal, retryAfterSeconds?: number) => {
      res.set({ Connection: 'close', ...(retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {}) });
      refuse(res, refusal);
    };
    const type = req.get('content-type');
    if (essence(type) !== 'application/json') {
      refuseClosing({ status: 415, code: 'unsupported_media_type', message: 'Unsupported Media Type: Content-Type must be application/json' });
      return;
    }
    const charset = charsetOf(type);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      refuseClosing({ status: 415, code: 'unsupported_charset', message: `Unsupported Media Type: charset ${JSON.stringify(charset.slice(0, 40))}; send JSON in UTF-8` });
      return;
    }
    reader.read(req).then(
      (body) => {
        res.once('close', body.release);
        let parsed: unknown;
        try {
          // TextDecoder drops a leading byte order mark, as JSON parsers of HTTP bodies do.
          parsed = JSON.parse(new TextDecoder('utf-8').decode(body.bytes));
        } catch {
          refuse(res, { status: 400, code: 'parse_error', message: 'Parse error: the request body is not valid JSON.' });
          return;
        }
        req.body = parsed;
        next();
      },
      (error: unknown) => {
        if (!(error instanceof BodyError)) {
          next(error);
          return;
        }
        if (!res.headersSent) refuseClosing({ status: error.status, code: error.code, message: error.message }, error.retryAfterSeconds);
      },
    );
  };
}

/**
 * For endpoints that take no body (the REST API is GET only): a request that carries one is
 * refused before it is read and its connection closed, rather than kept open while Node
 * drains whatever the sender trickles in.
 */
export function noBody(refuse: RefuseBody): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) {
      next();
      return;
    }
    res.set('Connection', 'close');
    refuse(res, { status: 400, code: 'body_not_accepted', message: 'This endpoint takes no request body: send the arguments in the URL query, and no Content-Length or Transfer-Encoding.' });
  };
}
