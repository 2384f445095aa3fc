import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from '../data/corpora';

/** One MCP client with its server, however it is reached. */
export interface McpConnection {
  client: Client;
  /** The server process (stdio only). */
  pid: number | null;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns an MCP server over stdio and connects the SDK client to it. */
export async function connectStdio(command: string, args: string[], env: Record<string, string>): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const client = new Client({ name: 'gitdex-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`MCP server ${args.join(' ')} did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return { client, pid: transport.pid, stderr: () => stderr, close: () => client.close() };
}

/** Connects the SDK client to a Streamable HTTP endpoint (…/mcp). */
export async function connectHttp(url: string): Promise<McpConnection> {
  const client = new Client({ name: 'gitdex-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, pid: null, stderr: () => '', close: () => client.close() };
}

/** Calls a tool; a tool error (isError) is a failure of the benchmark, not a sample. */
export async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(' ');
    throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} failed: ${text.slice(0, 500)}`);
  }
  return result;
}

/** The text blocks of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
