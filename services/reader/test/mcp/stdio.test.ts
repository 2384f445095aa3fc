import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ReadFileOutput } from '@gitdex/contracts';
import { runStdio } from '../../src/mcp/stdio';
import { createWorld } from '../support/world';

/** The client end of a stdio pipe pair, as an agent that spawned gitdex holds it. */
class PipeClientTransport implements Transport {
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

test('runStdio serves the tools over a stdin/stdout pair', async () => {
  const world = await createWorld();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const running = await runStdio(world.deps, { stdin, stdout });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new PipeClientTransport(stdout, stdin));
  expect((await client.listTools()).tools).toHaveLength(6);
  const result = await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md', end_line: 1 } });
  expect((result.structuredContent as ReadFileOutput).content).toBe('# API');
  await client.close();
  await running.close();
});
