import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Registry } from 'prom-client';
import { createReaderApp } from '../../src/app';
import type { ReaderDeps } from '../../src/deps';
import { runStdio } from '../../src/mcp/stdio';
import { connectInMemory } from '../support/mcp-client';

/** The client end of a stdio pipe pair, as an agent that spawned gitdex holds it. */
export class PipeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly fromServer: PassThrough,
    private readonly toServer: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** An SDK client connected to a reader, and how to end both sides. */
export interface Connected {
  client: Client;
  close: () => Promise<void>;
}

/** Over a stdin/stdout pair served by runStdio, as `gitdex --stdio` serves an agent. */
export async function connectStdio(deps: ReaderDeps): Promise<Connected> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const running = await runStdio(deps, { stdin, stdout });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new PipeClientTransport(stdout, stdin));
  return {
    client,
    // As `gitdex mcp` does when the agent closes its stdin.
    close: async () => {
      await client.close();
      await running.close();
    },
  };
}

/** Over Streamable HTTP to the reader app's /mcp on a free port. */
export async function connectHttp(deps: ReaderDeps): Promise<Connected> {
  const app = createReaderApp(deps, { registry: new Registry() });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
  return {
    client,
    close: async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every transport gitdex serves MCP on, by name. */
export const TRANSPORTS: [string, (deps: ReaderDeps) => Promise<Connected>][] = [
  ['stdio', connectStdio],
  ['Streamable HTTP', connectHttp],
  ['in memory', connectInMemory],
];
