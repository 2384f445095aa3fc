/**
 * What an MCP call costs over Streamable HTTP before any tool work, in one process (SQLite,
 * no engines): a plain GET beside an MCP ping beside read_file of 5 small files in turn
 * (no read cache). Where the HTTP rows of the reads table lose to a stdio baseline.
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/micro/http-floor.ts
 */
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { createReaderApp } from '@gitdex/reader';
import { median } from '../measure/stats';
import { seedRepository } from '../../services/reader/test/support/documents';

async function main() {
  const index = new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${i}.ts`, 'const x = 1;\n'.repeat(100)]));
  await seedRepository(index, { id: 1, fullName: 'octo/api', files });
  const app = createReaderApp({ index }, { registry: new Registry() });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  for (let i = 0; i < 20; i += 1) await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: `src/f${i % 5}.ts` } });
  const reads: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await client.callTool({ name: 'read_file', arguments: { repository: 'octo/api', path: `src/f${i % 5}.ts` } });
    reads.push(performance.now() - t);
  }
  console.log(`read_file p50 ${median(reads).toFixed(2)} ms`);
  const pings: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await client.ping();
    pings.push(performance.now() - t);
  }
  console.log(`ping p50 ${median(pings).toFixed(2)} ms`);
  const fetches: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await (await fetch(new URL('/healthz', url))).text();
    fetches.push(performance.now() - t);
  }
  console.log(`GET /healthz p50 ${median(fetches).toFixed(2)} ms`);
  await client.close();
  server.close();
}
void main();
