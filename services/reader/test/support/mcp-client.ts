import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal, ReaderDeps } from '../../src/deps';
import { connectMcpServer } from '../../src/mcp/connect';

/** An MCP SDK client linked in memory to a fresh reader server, connected as stdio connects one. */
export async function connectInMemory(deps: ReaderDeps, principal: Principal | null = null): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await connectMcpServer(deps, serverSide, { principal, transport: 'memory' });
  const client = new Client({ name: 'reader-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The structured content of a successful call; fails the test with the error text otherwise. */
export function ok<T = Record<string, any>>(result: ToolResult): T {
  if (result.isError) throw new Error(`expected success, got error: ${textOf(result)}`);
  return result.structuredContent as T;
}

export function failed(result: ToolResult): { text: string; code: string | undefined; suggestions: string[] } {
  if (!result.isError) throw new Error(`expected an error, got: ${textOf(result).slice(0, 500)}`);
  const meta = (result._meta?.['gitdex/error'] ?? {}) as { code?: string; suggestions?: string[] };
  return { text: textOf(result), code: meta.code, suggestions: meta.suggestions ?? [] };
}
