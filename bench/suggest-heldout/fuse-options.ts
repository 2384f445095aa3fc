/**
 * Picks fuse.js's best options for paths on the TUNING set (the generated cases of kafkajs,
 * pino, @modelcontextprotocol/sdk, zod and the bench's medium repository), so the fuse.js
 * baseline on the held-out set is fuse.js at its best without looking at the held-out cases.
 * Prints top-1 on all cases per option set, best first; the winner belongs in FUSE_FOR_PATHS (fuse.ts).
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/suggest-heldout/fuse-options.ts [perKind]
 */
import type { IFuseOptions } from 'fuse.js';
import { loadPaths, makeCaseSets } from '../../services/reader/test/support/suggest-cases';
import { mediumCorpus } from '../data/corpora';
import { fuseTop } from './fuse';

type Options = IFuseOptions<{ path: string; name: string }>;
const perKind = Number(process.argv[2] ?? 10);

const grid: { label: string; options: Options }[] = [];
for (const keys of ['path', 'path+name'] as const) {
  for (const ignoreLocation of [false, true]) {
    for (const threshold of [0.2, 0.4, 0.6]) {
      for (const ignoreFieldNorm of [false, true]) {
        const options: Options = {
          keys:
            keys === 'path'
              ? ['path']
              : [
                  { name: 'path', weight: 1 },
                  { name: 'name', weight: 2 },
                ],
          ignoreLocation,
          threshold,
          ignoreFieldNorm,
        };
        grid.push({ label: `keys ${keys}, ignoreLocation ${ignoreLocation}, threshold ${threshold}, ignoreFieldNorm ${ignoreFieldNorm}`, options });
      }
    }
  }
}

const trees = [...['kafkajs', 'pino', 'mcp-sdk', 'zod'].map((n) => loadPaths(n)), mediumCorpus().files.map((f) => f.path)];
const sets = trees.map((paths) => {
  const s = makeCaseSets(paths, { perKind, seed: 7 });
  return { paths, cases: [...s.oneAnswer, ...s.ambiguous] };
});
const scores = grid.map(({ label, options }) => {
  let hits = 0;
  let n = 0;
  for (const { paths, cases } of sets) {
    const top = fuseTop(paths, options);
    for (const c of cases) {
      n += 1;
      if (c.answers.includes(top(c.query)[0]!)) hits += 1;
    }
  }
  return { label, top1: (100 * hits) / n, n };
});
for (const s of scores.sort((a, b) => b.top1 - a.top1)) console.log(`${s.top1.toFixed(1)} % of ${s.n}: ${s.label}`);
