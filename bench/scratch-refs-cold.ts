// Scratch: find_references' first call in a fresh reader: pool start against later calls.
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import { createReaderApp } from '@gitdex/reader';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';

async function main() {
  const index = new ElasticsearchIndexStore({ node: process.env.ELASTICSEARCH_URL!, indexPrefix: process.env.PREFIX! });
  const server = createReaderApp({ index }, { registry: new Registry() }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)));
  for (const name of (process.argv[2] ?? 'Generated7,Generated8,Generated9').split(',')) {
    const t = performance.now();
    const r = await client.callTool({ name: 'find_references', arguments: { repository: 'bench/large', name } });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    console.log(name, (performance.now() - t).toFixed(1), 'ms', text.split('\n').slice(0, 2).join(' | ').slice(0, 300));
  }
  await client.close();
  server.close();
  await index.close();
  process.exit(0);
}
void main();
