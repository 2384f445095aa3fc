/**
 * Accuracy of the path ranking on the frozen held-out cases (trees nobody tuned on), beside
 * fuse.js with its defaults and with the options best for paths. The ranking alone: the
 * candidates as the engines pick them (the tuning set's candidate finder), no index, no MCP.
 * Run: npx tsx --tsconfig bench/tsconfig.json bench/suggest-heldout/evaluate.ts; VERBOSE=1 prints gitdex's misses,
 * NO_FUSE=1 leaves fuse.js out.
 */
import { rankPaths } from '@gitdex/reader';
import { candidateFinder } from '../../services/reader/test/support/candidates';
import { CANDIDATES } from '../../services/reader/src/suggest/candidates';
import { FUSE_DEFAULTS, FUSE_FOR_PATHS, fuseTop, type Top } from './fuse';
import { loadHeldOut, type HeldOutTree } from './load';
import { accuracy, type Accuracy } from './score';

/** The product's ranking over a tree: candidates as the engines choose them, then rank.ts. */
export function gitdexTop(paths: readonly string[]): Top {
  const candidates = candidateFinder([...paths]);
  return (q) => rankPaths(q, candidates(q, CANDIDATES), 5).map((r) => r.path);
}

export interface HeldOutResult {
  tree: string;
  paths: number;
  gitdex: Accuracy;
  fuseDefaults: Accuracy;
  fuseForPaths: Accuracy;
}

export async function evaluateHeldOut(trees: HeldOutTree[] = loadHeldOut(), progress: (line: string) => void = () => undefined, withFuse = true): Promise<HeldOutResult[]> {
  const out: HeldOutResult[] = [];
  for (const t of trees) {
    progress(`${t.name}: ${t.paths.length} paths, ${t.cases.length} cases`);
    out.push({
      tree: t.name,
      paths: t.paths.length,
      gitdex: await accuracy(t.cases, gitdexTop(t.paths)),
      fuseDefaults: await accuracy(withFuse ? t.cases : [], fuseTop(t.paths, FUSE_DEFAULTS)),
      fuseForPaths: await accuracy(withFuse ? t.cases : [], fuseTop(t.paths, FUSE_FOR_PATHS)),
    });
  }
  return out;
}

/** All trees' cases together: the headline figures. */
export function pooled(results: HeldOutResult[], pick: (r: HeldOutResult) => Accuracy): Accuracy['all'] & { oneN: number; one1: number; ambN: number; amb1: number } {
  const sum = (f: (a: Accuracy) => { n: number; top1: number; top5: number }, key: 'top1' | 'top5') => {
    const n = results.reduce((s, r) => s + f(pick(r)).n, 0);
    return { n, v: (results.reduce((s, r) => s + (f(pick(r)).n === 0 ? 0 : (f(pick(r))[key] * f(pick(r)).n) / 100), 0) / Math.max(1, n)) * 100 };
  };
  const all1 = sum((a) => a.all, 'top1');
  const one1 = sum((a) => a.oneAnswer, 'top1');
  const amb1 = sum((a) => a.ambiguous, 'top1');
  return { n: all1.n, top1: all1.v, top5: sum((a) => a.all, 'top5').v, oneN: one1.n, one1: one1.v, ambN: amb1.n, amb1: amb1.v };
}

if (require.main === module) {
  void (async () => {
    // NO_FUSE=1: the ranking alone (fuse.js on an 11,000-path tree takes minutes).
    const results = await evaluateHeldOut(loadHeldOut(), (line) => process.stderr.write(`${line}\n`), process.env.NO_FUSE !== '1');
    const f = (x: number) => `${x.toFixed(1)} %`;
    console.log('| tree | paths | cases (one answer / ambiguous) | gitdex top-1 all | one / amb | top-5 | fuse.js defaults top-1 | fuse.js for paths top-1 | top-5 |');
    console.log('|---|--:|---|--:|---|--:|--:|--:|--:|');
    for (const r of results) {
      console.log(
        `| ${r.tree} | ${r.paths} | ${r.gitdex.all.n} (${r.gitdex.oneAnswer.n} / ${r.gitdex.ambiguous.n}) | ${f(r.gitdex.all.top1)} | ${f(r.gitdex.oneAnswer.top1)} / ${f(r.gitdex.ambiguous.top1)} | ${f(r.gitdex.all.top5)} | ${f(r.fuseDefaults.all.top1)} | ${f(r.fuseForPaths.all.top1)} | ${f(r.fuseForPaths.all.top5)} |`,
      );
      if (process.env.VERBOSE === '1')
        for (const m of r.gitdex.misses) console.log(`    miss ${m.c.kind}: ${m.c.query} -> ${m.got[0]} (want ${m.c.answers.slice(0, 3).join(' | ')}${m.c.answers.length > 3 ? ' …' : ''})`);
      console.log(
        `    by kind gitdex: ${Object.entries(r.gitdex.byKind)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(', ')}`,
      );
    }
    for (const [name, pick] of [
      ['gitdex', (r: HeldOutResult) => r.gitdex],
      ['fuse.js defaults', (r: HeldOutResult) => r.fuseDefaults],
      ['fuse.js for paths', (r: HeldOutResult) => r.fuseForPaths],
    ] as const) {
      const p = pooled(results, pick);
      console.log(`${name}: all ${p.n} cases top-1 ${f(p.top1)}, top-5 ${f(p.top5)}; one answer (${p.oneN}) ${f(p.one1)}; ambiguous (${p.ambN}) ${f(p.amb1)}`);
    }
  })();
}
