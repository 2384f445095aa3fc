import type { Request, Response } from 'express';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ReaderDeps } from '../deps';
import { plainToolCallOf, toolCallResponse, type PlainToolCall } from './plain-tool-call';
import type { McpServerContext } from './server';

/**
 * The POST when it is one tools/call of a known tool that the SDK's Streamable HTTP transport
 * would take as it is (headers, protocol version, JSON-RPC shape); else null, and the SDK
 * handles it, with its own answers to anything unusual.
 */
export function plainToolCall(req: Request): PlainToolCall | null {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  const type = req.headers['content-type'];
  if (type !== 'application/json' && !type?.startsWith('application/json;')) return null;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return null;
  return plainToolCallOf(req.body);
}

/**
 * Answers a plain tools/call as the SDK's server and transport would (the same JSON-RPC
 * response, as application/json), without building them: per request they cost more than
 * a read from memory (a server with every tool, prompt and resource registered, and the
 * request converted to a web-standard Request and back). The work is stopped when the client
 * goes away, as the SDK's transport does on close.
 */
export async function answerToolCall(deps: ReaderDeps, call: PlainToolCall, context: McpServerContext, res: Response): Promise<void> {
  const stop = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) stop.abort(new Error('client went away'));
  });
  const response = await toolCallResponse(deps, call, { ...context, transport: 'http' }, stop.signal);
  if (stop.signal.aborted) return;
  res.status(200).type('application/json').send(JSON.stringify(response));
}
