import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ReaderDeps } from '../deps';
import { createMcpServer, type McpServerContext } from './server';

/** An MCP server on a transport that stays open (stdio, in memory): the SDK answers every message. */
export async function connectMcpServer(deps: ReaderDeps, transport: Transport, context: McpServerContext & { transport: string }): Promise<McpServer> {
  const server = createMcpServer(deps, context);
  await server.connect(transport);
  return server;
}
