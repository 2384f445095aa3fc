/**
 * p50/p99 of every reader tool through MCP over Streamable HTTP at 32 concurrent clients,
 * beside the same calls from 1 client in the same run (the baseline), on an index seeded
 * with a real package tree: Elasticsearch when ELASTICSEARCH_URL is set (indices under a
 * throw-away prefix, deleted after), else the embedded SQLite index.
 * Run: [ELASTICSEARCH_URL=http://127.0.0.1:19200] npx tsx bench/micro/tools-concurrent.ts [callsPerClient]
 */
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Registry } from 'prom-client';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { composeIndex, createReaderApp } from '@gitdex/reader';
import { median, percentile } from '../measure/stats';
import { loadPaths, makeCases } from '../../services/reader/test/support/suggest-cases';
import { seedRepository } from '../../services/reader/test/support/documents';

const perClient = Number(process.argv[2] ?? 40);

async function main(): Promise<void> {
  const elasticsearchUrl = process.env.ELASTICSEARCH_URL;
  const prefix = `benchtools${Date.now().toString(36)}`;
  const index = elasticsearchUrl ? new ElasticsearchIndexStore({ node: elasticsearchUrl, indexPrefix: prefix }) : new SqliteIndexStore({ file: ':memory:' });
  await index.ensureReady();
  console.log(`index: ${elasticsearchUrl ? `Elasticsearch ${elasticsearchUrl}` : 'SQLite in memory'}`);
  const paths = loadPaths('zod');
  await seedRepository(index, { id: 1, fullName: 'colinhacks/zod', files: Object.fromEntries(paths.map((p, i) => [p, `// ${p}\n${'const x = 1;\n'.repeat(50 + (i % 200))}`])) });
  const app = createReaderApp({ index: composeIndex(index) }, { registry: new Registry() });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const cases = makeCases(paths, { perKind: 10, seed: 3 });
  const tools: [string, (i: number) => Record<string, unknown>][] = [
    ['read_file', (i) => ({ repository: 'colinhacks/zod', path: paths[i % paths.length] })],
    ['list_files', () => ({ repository: 'colinhacks/zod', folder: 'src/v4', depth: 2 })],
    ['repository_overview', () => ({ repository: 'colinhacks/zod' })],
    ['repositories_state', () => ({ repositories: ['colinhacks/zod'] })],
    ['suggest_paths', (i) => ({ repository: 'colinhacks/zod', query: cases[i % cases.length]!.query })],
  ];
  const clients = await Promise.all(
    Array.from({ length: 32 }, async () => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(url));
      return client;
    }),
  );
  const measure = async (name: string, args: (i: number) => Record<string, unknown>, concurrency: number) => {
    const times: number[] = [];
    await Promise.all(
      clients.slice(0, concurrency).map(async (client, c) => {
        for (let i = 0; i < perClient; i += 1) {
          const started = performance.now();
          const result = await client.callTool({ name, arguments: args(c * perClient + i) });
          times.push(performance.now() - started);
          if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
        }
      }),
    );
    return times;
  };
  console.log('| tool | 1 client p50 / p99 (ms) | 32 clients p50 / p99 (ms) | ratio p50 / p99 |\n|---|--:|--:|--:|');
  for (const [name, args] of tools) {
    await measure(name, args, 4);
    const one = await measure(name, args, 1);
    const many = await measure(name, args, 32);
    const f = (v: number) => v.toFixed(1);
    console.log(
      `| ${name} | ${f(median(one))} / ${f(percentile(one, 0.99))} | ${f(median(many))} / ${f(percentile(many, 0.99))} | ${(median(many) / median(one)).toFixed(1)}× / ${(percentile(many, 0.99) / percentile(one, 0.99)).toFixed(1)}× |`,
    );
  }
  await Promise.all(clients.map((c) => c.close()));
  server.close();
  if (elasticsearchUrl) await new ElasticsearchClient({ node: elasticsearchUrl }).indices.delete({ index: `${prefix}-*` });
  await index.close();
}

void main();
