/**
 * What an MCP call costs over Streamable HTTP before any tool work, in one process (SQLite,
 * no engines): a plain GET beside an MCP ping beside read_file of 5 small files in turn
 * (no read cache). Where the HTTP rows of the reads table lose to a stdio baseline.
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/micro/http-floor.ts
 */
import { median } from '../measure/stats';
import { httpReader } from './http-reader';

async function main() {
  const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${i}.ts`, 'const x = 1;\n'.repeat(100)]));
  const { client, url, close } = await httpReader('octo/api', files);
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
  await close();
}
void main();
