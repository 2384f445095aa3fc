import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOL_NAMES, type ReadFileOutput } from '@gitdex/contracts';
import { runStdio } from '../../src/mcp/stdio';
import { createWorld } from '../support/world';
import { PipeClientTransport } from './transports';

test('runStdio serves the tools over a stdin/stdout pair', async () => {
  const world = await createWorld();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const running = await runStdio(world.deps, { stdin, stdout });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(new PipeClientTransport(stdout, stdin));
  expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
  const result = await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: 'README.md', end_line: 1 } });
  expect((result.structuredContent as ReadFileOutput).content).toBe('# API');
  await client.close();
  await running.close();
});
