import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { TOOL_NAMES, type ToolName } from '@gitdex/contracts';
import { resolveDeps, type Principal, type ReaderDeps, type ReaderOptions } from '../deps';
import { callTool, type ToolObserver } from '../tools/call-tool';
import { TOOLS } from '../tools/registry';
import { ToolError } from '../tool-error';
import { READER_VERSION } from '../version';
import { ADVERTISED_INPUT } from './advertised-input';
import { INSTRUCTIONS } from './instructions';
import { registerFilePrompts, registerFileResources } from './resources';
import { registerRepositoryResource, registerSubscriptions } from './subscriptions';

export interface McpServerContext {
  /** Who calls: the access hook decides what they may read. Null: anonymous. */
  principal?: Principal | null;
  /** Told of every tool call (metrics). */
  observe?: ToolObserver;
  /** Transport label for metrics: "http", "stdio", "memory". */
  transport?: string;
  /** The HTTP client's address (deps.address), for an anonymous caller's lookups of unseen repositories. */
  address?: string;
  /**
   * The connection outlives a request (stdio, an HTTP session), so resource subscriptions can
   * notify on it. Default true; a stateless HTTP request is not.
   */
  live?: boolean;
}

/**
 * The SDK builds a JSON Schema validator (a new Ajv, about a millisecond) for every server
 * unless given one, and the HTTP transport makes a server per request. It only checks
 * answers to elicitation requests, which gitdex never sends; one is shared by every server.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** Every tool is a read of the index: no side effects a client must confirm (a backfill request is idempotent). */
const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;

/**
 * An MCP server with the reader tools, a resource template for files and prompts whose
 * arguments complete. The tools are registered with the SDK, whose own handlers answer
 * tools/list and tools/call on every transport (docs/design/mcp-plumbing.md). Cheap to
 * create: the HTTP transport makes one per request.
 */
export function createMcpServer(options: ReaderOptions | ReaderDeps, context: McpServerContext = {}): McpServer {
  const resolved = resolveDeps(options);
  const deps = context.address !== undefined ? { ...resolved, address: context.address } : resolved;
  const principal = context.principal ?? null;
  const transport = context.transport ?? 'mcp';
  const server = new McpServer({ name: 'gitdex', title: 'gitdex: indexed GitHub repositories', version: READER_VERSION }, { instructions: INSTRUCTIONS, jsonSchemaValidator: SCHEMA_VALIDATOR });

  const callContext = { ...context, principal, transport };
  for (const name of TOOL_NAMES) {
    const tool = TOOLS[name];
    server.registerTool(
      name,
      { title: tool.title, description: tool.description, inputSchema: ADVERTISED_INPUT[name], outputSchema: tool.output, annotations: { title: tool.title, ...ANNOTATIONS } },
      // extra.signal is aborted when the client cancels the request (notifications/cancelled) or the transport closes.
      (args: unknown, extra: { signal: AbortSignal }) => toolResult(deps, name, args, callContext, extra.signal),
    );
  }
  registerFileResources(server, deps, principal);
  registerFilePrompts(server, deps, principal);
  registerRepositoryResource(server, deps, principal);
  registerSubscriptions(server, deps, principal, context.live ?? true);
  return server;
}

/** A tool call's MCP result: the answer as text and structured content, or a caller error (wrong arguments too: callTool parses them) as a tool result. */
async function toolResult(deps: ReaderDeps, name: ToolName, args: unknown, context: McpServerContext & { transport: string }, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const answer = await callTool(deps, name, args, context.principal ?? null, {
      transport: context.transport,
      signal,
      ...(context.observe ? { observe: context.observe } : {}),
      ...(context.address !== undefined ? { address: context.address } : {}),
    });
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured as Record<string, unknown> };
  } catch (error) {
    return errorResult(error);
  }
}

/** A caller error as a tool result: the message for the model, code and suggestions for programs in _meta. */
function errorResult(error: unknown): CallToolResult {
  const toolError = error instanceof ToolError ? error : new ToolError('INTERNAL', 'Internal error; it was logged. Retry.');
  return {
    isError: true,
    content: [{ type: 'text', text: toolError.message }],
    _meta: { 'gitdex/error': { code: toolError.code, suggestions: toolError.suggestions } },
  };
}
