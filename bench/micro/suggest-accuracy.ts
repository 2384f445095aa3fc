/**
 * Top-1 accuracy of the path ranking on misspelt, partial, misplaced and restyled paths
 * of real package trees, beside fuse.js on the same cases, with the time a query takes.
 * Two sets per tree: cases with one right answer, and ambiguous ones, where a top-1 is
 * right when it is any of the paths that fit the query equally (suggest-cases.ts).
 * A micro-benchmark of the ranking alone (candidates as the engines pick them, no index,
 * no MCP); `npm run bench` measures suggest_paths end to end.
 * Run: npx tsx bench/micro/suggest-accuracy.ts [perKind] [seed]; VERBOSE=1 prints misses.
 */
import Fuse from 'fuse.js';
import { rankPaths } from '@gitdex/reader';
import { loadPaths, makeCaseSets, type SuggestCase } from '../../services/reader/test/support/suggest-cases';
import { candidateFinder } from '../../services/reader/test/support/candidates';
import { CANDIDATES } from '../../services/reader/src/suggest/candidates';
import { mediumCorpus } from '../data/corpora';

const perKind = Number(process.argv[2] ?? 40);
const seed = Number(process.argv[3] ?? 7);
const verbose = process.env.VERBOSE === '1';

type Top = (query: string) => string[];

interface Score {
  top1: number;
  top5: number;
  msPerQuery: number;
  byKind: Map<string, { ok: number; all: number }>;
}

function score(cases: SuggestCase[], top: Top, onMiss?: (c: SuggestCase, got: string[]) => void): Score {
  const byKind = new Map<string, { ok: number; all: number }>();
  let top1 = 0;
  let top5 = 0;
  const started = performance.now();
  for (const c of cases) {
    const got = top(c.query);
    const hit = c.answers.includes(got[0] as string);
    if (hit) top1 += 1;
    else onMiss?.(c, got);
    if (got.slice(0, 5).some((p) => c.answers.includes(p))) top5 += 1;
    const entry = byKind.get(c.kind) ?? { ok: 0, all: 0 };
    entry.all += 1;
    if (hit) entry.ok += 1;
    byKind.set(c.kind, entry);
  }
  const n = Math.max(1, cases.length);
  return { top1: (100 * top1) / n, top5: (100 * top5) / n, msPerQuery: (performance.now() - started) / n, byKind };
}

const pct = (x: number) => `${x.toFixed(1)} %`;

function kinds(ours: Score, theirs: Score): string {
  return [...ours.byKind.entries()].map(([k, v]) => `${k} ${Math.round((100 * v.ok) / v.all)}/${Math.round((100 * (theirs.byKind.get(k)?.ok ?? 0)) / v.all)}`).join(', ');
}

function report(label: string, cases: SuggestCase[], ours: Score, theirs: Score) {
  console.log(`  ${label.padEnd(10)} ${String(cases.length).padStart(4)} cases: top-1 gitdex ${pct(ours.top1)}, fuse.js ${pct(theirs.top1)}; top-5 ${pct(ours.top5)} / ${pct(theirs.top5)}`);
  console.log(`    by kind (gitdex/fuse.js): ${kinds(ours, theirs)}`);
}

const trees: [string, () => string[]][] = [
  ...['kafkajs', 'pino', 'mcp-sdk', 'zod'].map((name): [string, () => string[]] => [name, () => loadPaths(name)]),
  ['bench medium', () => mediumCorpus().files.map((f) => f.path)],
];
const summary: string[] = [];
for (const [name, load] of trees) {
  const paths = load();
  const { oneAnswer, ambiguous } = makeCaseSets(paths, { perKind, seed });
  console.log(`\n${name}: ${paths.length} paths`);
  const candidates = candidateFinder(paths);
  const fuse = new Fuse(paths, { includeScore: true });
  const gitdex: Top = (q) => rankPaths(q, candidates(q, CANDIDATES), 5).map((r) => r.path);
  const theirs: Top = (q) => fuse.search(q, { limit: 5 }).map((r) => r.item);
  const miss = (c: SuggestCase, got: string[]) => console.log(`    miss ${c.kind}: ${c.query} -> ${got[0]} (want ${c.answers.slice(0, 3).join(' | ')}${c.answers.length > 3 ? ' …' : ''})`);
  const one = [score(oneAnswer, gitdex, verbose ? miss : undefined), score(oneAnswer, theirs)] as const;
  const amb = [score(ambiguous, gitdex, verbose ? miss : undefined), score(ambiguous, theirs)] as const;
  report('one answer', oneAnswer, ...one);
  report('ambiguous', ambiguous, ...amb);
  // Ranking alone (candidates picked beforehand) and fuse.js, per query.
  const picked = oneAnswer.map((c) => candidates(c.query, CANDIDATES));
  const started = performance.now();
  oneAnswer.forEach((c, i) => rankPaths(c.query, picked[i] as string[], 5));
  console.log(`  ms/query: ranking ${((performance.now() - started) / Math.max(1, oneAnswer.length)).toFixed(3)}, fuse.js ${one[1].msPerQuery.toFixed(3)}`);
  summary.push(`| ${name} | ${paths.length} | ${oneAnswer.length} | ${pct(one[0].top1)} | ${pct(one[1].top1)} | ${ambiguous.length} | ${pct(amb[0].top1)} | ${pct(amb[1].top1)} |`);
}
console.log(`\nperKind ${perKind}, seed ${seed}: top-1 gitdex / fuse.js`);
console.log('| tree | paths | one-answer cases | gitdex | fuse.js | ambiguous cases | gitdex | fuse.js |\n|---|---|---|---|---|---|---|---|');
console.log(summary.join('\n'));
