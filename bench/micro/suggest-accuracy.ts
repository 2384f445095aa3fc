/**
 * Top-1 accuracy of the path ranking on misspelt, partial, misplaced and restyled paths
 * of real package trees, beside fuse.js on the same cases, with the time a query takes.
 * A micro-benchmark of the ranking alone (no index, no MCP); `npm run bench` measures
 * suggest_paths end to end. Run: npx tsx bench/micro/suggest-accuracy.ts [perKind] [seed]
 */
import Fuse from 'fuse.js';
import { rankPaths } from '@gitdex/reader';
import { isResolvable, loadPaths, makeCases, type SuggestCase } from '../../services/reader/test/support/suggest-cases';
import { candidatesFor } from '../../services/reader/test/support/candidates';

const perKind = Number(process.argv[2] ?? 40);
const seed = Number(process.argv[3] ?? 7);
const verbose = process.env.VERBOSE === '1';

function measure(label: string, cases: SuggestCase[], top1: (query: string) => string | undefined) {
  const byKind = new Map<string, { ok: number; all: number }>();
  let ok = 0;
  const started = performance.now();
  for (const c of cases) {
    const got = top1(c.query);
    const hit = got === c.expected;
    if (hit) ok += 1;
    else if (verbose && label === 'rank(candidates)') console.log(`  miss ${c.kind}: ${c.query} -> ${got} (want ${c.expected})`);
    const entry = byKind.get(c.kind) ?? { ok: 0, all: 0 };
    entry.all += 1;
    if (hit) entry.ok += 1;
    byKind.set(c.kind, entry);
  }
  const ms = (performance.now() - started) / cases.length;
  const kinds = [...byKind.entries()].map(([k, v]) => `${k} ${Math.round((100 * v.ok) / v.all)}`).join(', ');
  console.log(`${label.padEnd(18)} ${((100 * ok) / cases.length).toFixed(1)}%  ${ms.toFixed(3)} ms/query  [${kinds}]`);
  return ok / cases.length;
}

for (const name of ['kafkajs', 'pino', 'mcp-sdk', 'zod']) {
  const paths = loadPaths(name);
  const cases = makeCases(paths, { perKind, seed });
  console.log(`\n${name}: ${paths.length} paths, ${cases.length} cases`);
  const resolvable = cases.filter((c) => isResolvable(c, paths));
  console.log(`  resolvable: ${resolvable.length}`);
  measure('rank(resolvable)', resolvable, (q) => rankPaths(q, candidatesFor(paths, q, 200), 1)[0]?.path);
  const fuse = new Fuse(paths, { includeScore: true });
  measure('fuse(resolvable)', resolvable, (q) => fuse.search(q, { limit: 1 })[0]?.item);
  measure('rank(all paths)', cases, (q) => rankPaths(q, paths, 1)[0]?.path);
  measure('rank(candidates)', cases, (q) => rankPaths(q, candidatesFor(paths, q, 200), 1)[0]?.path);
  measure('fuse.js default', cases, (q) => fuse.search(q, { limit: 1 })[0]?.item);
  const fuse2 = new Fuse(paths, { includeScore: true, ignoreLocation: true, threshold: 0.6 });
  measure('fuse.js anywhere', cases, (q) => fuse2.search(q, { limit: 1 })[0]?.item);
}
