/**
 * Hostile blobs through the worker pool with its default limits: how long each takes to come
 * back, how, and how long the next ordinary blob takes after it (the pool's health).
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/symbols-quality/hostile.ts
 */
import { createSymbolExtractor } from '@gitdex/symbols';
import { HOSTILE } from '../../libs/symbols/test/hostile';

async function main() {
  const pool = createSymbolExtractor({ threads: 1 });
  const ms = (since: number) => (performance.now() - since).toFixed(0);
  try {
    // Warm the worker and the grammars the inputs use.
    for (const h of HOSTILE) await pool.extract('x', h.path, h.language);
    const rows = ['| input | bytes | outcome | time to answer, ms | next ordinary blob, ms | workers replaced |', '| --- | --- | --- | --- | --- | --- |'];
    for (const h of HOSTILE) {
      const content = h.content();
      let start = performance.now();
      const symbols = await pool.extract(content, h.path, h.language);
      const took = ms(start);
      start = performance.now();
      const next = await pool.extract('def alive():\n    return 1\n', 'alive.py', 'Python');
      if (next.status !== 'parsed') throw new Error(`the pool is unhealthy after ${h.name}: ${next.reason}`);
      rows.push(
        `| ${h.name} | ${Buffer.byteLength(content)} | ${symbols.status}${symbols.reason ? ` (${symbols.reason})` : ''}, ${symbols.definitions.length} definitions, ${symbols.occurrences.length} occurrences | ${took} | ${ms(start)} | ${pool.replaced()} |`,
      );
    }
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    await pool.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
