import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { ReaderDeps } from '../deps';
import { principalOf } from '../http/auth';
import { jsonBody, readerBodyReader, type RefuseBody } from '../http/body';
import { callerGuards, entryGuards, type ReaderGuardOptions, type Refusals } from '../http/guards';
import { batchRateLimit } from '../http/rate-limit';
import type { ToolObserver } from '../tools/call-tool';
import { createMcpServer, type McpServerContext } from './server';
import { McpSessions, type McpSession } from './sessions';

function sessionIdOf(req: Request): string | undefined {
  const id = req.headers['mcp-session-id'];
  return typeof id === 'string' ? id : undefined;
}

/**
 * What a notifications/cancelled from the client would do, for each request of a POST whose
 * connection closed before its answer: the session's server aborts those calls (their signals).
 */
function cancelRequestsOf(session: McpSession, body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    session.transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client closed the connection' } });
  }
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === 'initialize';
}

function failed(deps: ReaderDeps, res: Response, error: unknown): void {
  deps.logger?.error({ err: error }, 'reader: MCP request failed');
  if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
}

/** An initialize that opens a session: its server and transport stay until DELETE, idleness or the transport closing. */
function openSession(deps: ReaderDeps, sessions: McpSessions, context: McpServerContext, owner: string, req: Request, res: Response): void {
  const server = createMcpServer(deps, { ...context, live: true });
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    enableJsonResponse: true,
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.add(id, { server, transport, principalId: context.principal?.id ?? null, owner }),
    onsessionclosed: (id) => {
      sessions.forget(id);
      void server.close();
    },
  });
  server
    .connect(transport)
    .then(() => transport.handleRequest(req, res, req.body))
    .catch((error: unknown) => failed(deps, res, error));
}

export interface McpHttpOptions extends ReaderGuardOptions {
  observe?: ToolObserver;
  /** Largest JSON-RPC request body accepted (default 1 MiB). */
  maxBodyBytes?: number;
  /** The sessions resource subscriptions live in (mcp/sessions.ts); default: a store of this router's own. */
  sessions?: McpSessions;
}

/** How often idle sessions are looked for. */
const SESSION_SWEEP_MS = 60_000;

/** Messages one POST may carry (protocol 2025-03-26 allows batches; gitdex's tools need none). */
export const MAX_BATCH_MESSAGES = 20;
/** Protocol versions from this one on dropped JSON-RPC batching. */
const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';

/** Batches: refused where the negotiated protocol has none, capped where it has. */
function batchGuard(req: Request, res: Response, next: NextFunction): void {
  if (!Array.isArray(req.body)) {
    next();
    return;
  }
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && version >= FIRST_VERSION_WITHOUT_BATCHES) {
    rpcError(res, 400, -32600, `Invalid Request: protocol version ${version.slice(0, 20)} has no JSON-RPC batches; send one message per POST.`);
    return;
  }
  if (req.body.length > MAX_BATCH_MESSAGES) {
    rpcError(res, 400, -32600, `Invalid Request: a batch carries at most ${MAX_BATCH_MESSAGES} messages (this one ${req.body.length}); split it.`);
    return;
  }
  next();
}

/** A JSON-RPC error answer outside any request (transport-level refusals). */
function rpcError(res: Response, status: number, code: number, message: string, data?: Record<string, unknown>): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null });
}

/** Transport refusals as JSON-RPC errors; a rate-limited caller also gets data.retry_after_seconds. */
const MCP_REFUSALS: Refusals = {
  forbidden: (res, message) => rpcError(res, 403, -32000, message),
  unauthenticated: (res, message) => rpcError(res, 401, -32001, message),
  rateLimited: (res, retryAfterSeconds, message) => rpcError(res, 429, -32000, message, { code: 'RATE_LIMITED', retry_after_seconds: retryAfterSeconds }),
};

/** A body refused before parsing (-32700 when it is not JSON, -32600 too large), with the status the body reader chose. */
const MCP_BODY_REFUSAL: RefuseBody = (res, { status, message }) => rpcError(res, status, status === 400 ? -32700 : status === 413 ? -32600 : -32000, message);

/**
 * Streamable HTTP at /mcp. Every request is answered as plain JSON by its own McpServer and
 * the SDK's transport, stateless, so any replica behind a load balancer can answer any
 * request; building a server is a few object allocations next to an index round trip. The one
 * thing kept is a session per initialize (mcp/sessions.ts, while there is room): it carries
 * resource subscriptions and the GET stream their notifications go down. A request naming a
 * session this process holds, for the same principal, goes to it; any other is answered
 * statelessly as before (docs/design/read-your-own-push.md).
 */
export function createMcpRouter(deps: ReaderDeps, options: McpHttpOptions = {}): Router {
  const router = express.Router();
  router.use('/mcp', ...entryGuards(options, MCP_REFUSALS), ...callerGuards(options, MCP_REFUSALS));
  const perMessage = batchRateLimit(options.limiter, principalOf, MCP_REFUSALS.rateLimited, options.onLimited);
  const body = jsonBody(readerBodyReader({ ...options.body, ...(options.maxBodyBytes ? { maxBytes: options.maxBodyBytes } : {}) }), MCP_BODY_REFUSAL);
  const sessions = options.sessions ?? new McpSessions();
  const sweeper = setInterval(() => sessions.sweep(), SESSION_SWEEP_MS);
  sweeper.unref();
  router.post('/mcp', body, batchGuard, perMessage, (req: Request, res: Response) => {
    const address = req.ip ?? req.socket.remoteAddress;
    const principal = principalOf(res);
    const session = sessions.use(sessionIdOf(req), principal?.id ?? null);
    if (session) {
      // A session outlives its requests, so the client going away cancels only this POST's calls.
      res.on('close', () => {
        if (!res.writableFinished) cancelRequestsOf(session, req.body);
      });
      session.transport.handleRequest(req, res, req.body).catch((error: unknown) => failed(deps, res, error));
      return;
    }
    const context = { principal, transport: 'http', ...(address !== undefined ? { address } : {}), ...(options.observe ? { observe: options.observe } : {}) };
    const owner = principal ? `principal:${principal.id}` : `address:${address ?? ''}`;
    if (isInitialize(req.body) && sessions.hasRoom(owner)) {
      openSession(deps, sessions, context, owner, req, res);
      return;
    }
    const server = createMcpServer(deps, { ...context, live: false });
    // Stateless: no sessionIdGenerator, so no session id is issued or required.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    // The client going away closes the transport, which aborts a call's extra.signal: its work stops.
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res, req.body))
      .catch((error: unknown) => {
        deps.logger?.error({ err: error }, 'reader: MCP request failed');
        if (!res.headersSent) rpcError(res, 500, -32603, 'Internal server error');
      });
  });
  const notHere = (_req: Request, res: Response) => {
    res.setHeader('Allow', 'POST');
    rpcError(
      res,
      405,
      -32000,
      'This MCP endpoint is stateless without a session: send every JSON-RPC message with POST; a GET stream (for resource notifications) or a DELETE needs the mcp-session-id that initialize answered with.',
    );
  };
  const inSession = (req: Request, res: Response, next: NextFunction) => {
    const session = sessions.use(sessionIdOf(req), principalOf(res)?.id ?? null);
    if (!session) {
      next();
      return;
    }
    if (req.method === 'GET') {
      session.streams += 1;
      res.on('close', () => {
        session.streams -= 1;
        session.lastUsed = Date.now();
      });
    }
    session.transport.handleRequest(req, res).catch((error: unknown) => failed(deps, res, error));
  };
  router.get('/mcp', inSession, notHere);
  router.delete('/mcp', inSession, notHere);
  // A body that is not JSON: a JSON-RPC parse error rather than an HTML page.
  router.use('/mcp', (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status = (error as { status?: number; type?: string }).status;
    if (res.headersSent || status === undefined) {
      next(error);
      return;
    }
    if (status === 413) rpcError(res, 413, -32600, 'Request body too large.');
    else rpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
  });
  return router;
}
