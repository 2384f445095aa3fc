import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveDeps, type Principal, type ReaderDeps, type ReaderOptions } from '../deps';
import type { ToolObserver } from '../tools/call-tool';
import { connectMcpServer } from './connect';

export interface StdioOptions {
  /** Who runs the process; the access hook decides what they may read. Default: anonymous. */
  principal?: Principal | null;
  observe?: ToolObserver;
  /** Defaults to process.stdin / process.stdout. Nothing else may write to stdout meanwhile. */
  stdin?: Readable;
  stdout?: Writable;
}

/** Serves MCP over stdio (an agent starts gitdex as a subprocess) until close() or the input ends. */
export async function runStdio(options: ReaderOptions | ReaderDeps, stdio: StdioOptions = {}): Promise<{ close(): Promise<void> }> {
  const server = await connectMcpServer(resolveDeps(options), new StdioServerTransport(stdio.stdin, stdio.stdout), {
    principal: stdio.principal ?? null,
    transport: 'stdio',
    ...(stdio.observe ? { observe: stdio.observe } : {}),
  });
  return { close: () => server.close() };
}
