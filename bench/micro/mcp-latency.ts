/**
 * Latency of the tools through MCP over Streamable HTTP (stateless, JSON answers) on the
 * embedded SQLite index, with real package trees as repositories.
 * A micro-benchmark in one process (no engines); `npm run bench` measures the reader as a
 * separate process. Run: npx tsx bench/micro/mcp-latency.ts [calls]
 */
import { median, percentile } from '../measure/stats';
import { loadPaths, makeCases } from '../../services/reader/test/support/suggest-cases';
import { httpReader } from './http-reader';

const calls = Number(process.argv[2] ?? 300);

async function main() {
  const paths = loadPaths('zod');
  const files = Object.fromEntries(paths.map((p, i) => [p, `// ${p}\n${'const x = 1;\n'.repeat(50 + (i % 200))}`]));
  const { client, close } = await httpReader('colinhacks/zod', files);
  const cases = makeCases(paths, { perKind: Math.ceil(calls / 13), seed: 3 });

  const run = async (label: string, args: (i: number) => { name: string; arguments: Record<string, unknown> }) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) await client.callTool(args(i));
    for (let i = 0; i < calls; i += 1) {
      const started = performance.now();
      const result = await client.callTool(args(i));
      times.push(performance.now() - started);
      if (result.isError) throw new Error(`${label}: ${JSON.stringify(result.content)}`);
    }
    console.log(`${label.padEnd(14)} p50 ${median(times).toFixed(2)} ms  p99 ${percentile(times, 0.99).toFixed(2)} ms`);
  };
  await run('suggest_paths', (i) => ({ name: 'suggest_paths', arguments: { repository: 'colinhacks/zod', query: cases[i % cases.length]!.query } }));
  await run('read_file', (i) => ({ name: 'read_file', arguments: { repository: 'colinhacks/zod', path: paths[i % paths.length] } }));
  await run('list_files', () => ({ name: 'list_files', arguments: { repository: 'colinhacks/zod', folder: 'src/v4', depth: 2 } }));
  await run('overview', () => ({ name: 'repository_overview', arguments: { repository: 'colinhacks/zod' } }));
  await close();
}

void main();
