import Fuse from 'fuse.js';
import { makeCaseSets, type SuggestCase } from '../../services/reader/test/support/suggest-cases';
import { callOk } from '../mcp/clients';
import { figure, row, upperTarget } from '../report/model';
import type { Backend } from '../setup/backends';
import { extent, median } from '../measure/stats';
import type { SuiteContext } from './context';
import { startGitdexStdio } from './reads';

interface Outcome {
  latencies: number[];
  top1: boolean[];
  top5: boolean[];
}

/** A hit is any of the case's answers: its one path, or any path that fits an ambiguous query equally. */
async function measure(cases: SuggestCase[], suggest: (query: string) => Promise<string[]> | string[]): Promise<Outcome> {
  const out: Outcome = { latencies: [], top1: [], top5: [] };
  for (const c of cases) {
    const started = performance.now();
    const paths = await suggest(c.query);
    out.latencies.push(performance.now() - started);
    out.top1.push(c.answers.includes(paths[0] as string));
    out.top5.push(paths.slice(0, 5).some((p) => c.answers.includes(p)));
  }
  return out;
}

const percent = (hits: boolean[]) => (100 * hits.filter(Boolean).length) / Math.max(1, hits.length);

function accuracyRow(backend: string, name: string, mine: boolean[], theirs: boolean[], target?: string) {
  const [ours, fuse] = [percent(mine), percent(theirs)];
  return row({
    suite: 'suggest',
    backend,
    case: name,
    value: figure('gitdex', '%', [ours]),
    baseline: figure('fuse.js', '%', [fuse]),
    ...(target ? { target: { text: target, met: ours >= 95 && ours > fuse } } : {}),
  });
}

/** "kind gitdex%/fuse.js%, …" over the cases at `indices`. */
function byKind(cases: SuggestCase[], mine: Outcome, theirs: Outcome, indices: number[]): string {
  const kinds = [...new Set(indices.map((i) => cases[i]!.kind))];
  return kinds
    .map((kind) => {
      const idx = indices.filter((i) => cases[i]!.kind === kind);
      return `${kind} ${percent(idx.map((i) => mine.top1[i]!)).toFixed(0)}/${percent(idx.map((i) => theirs.top1[i]!)).toFixed(0)}`;
    })
    .join(', ');
}

/**
 * suggest_paths through MCP stdio beside fuse.js (in process, default options) on the same
 * generated cases from the medium repository's real paths: latency and top-1/top-5 accuracy,
 * on cases with one right answer (the headline) and, apart, on ambiguous queries.
 */
export async function suggestSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const paths = ctx.repos.medium.corpus.files.map((f) => f.path);
  const sets = makeCaseSets(paths, { perKind: ctx.config.suggest.perKind, seed: ctx.config.suggest.seed });
  const cases = [...sets.oneAnswer, ...sets.ambiguous];
  const oneAnswer = sets.oneAnswer.map((_, i) => i);
  const ambiguous = sets.ambiguous.map((_, i) => sets.oneAnswer.length + i);
  const repository = ctx.repos.medium.fullName;
  const gitdex = await startGitdexStdio(backend);
  let mine: Outcome;
  try {
    const ask = async (query: string) => {
      const result = await callOk(gitdex.client, 'suggest_paths', { repository, query, limit: 5 });
      return ((result.structuredContent as { suggestions?: { path: string }[] } | undefined)?.suggestions ?? []).map((s) => s.path);
    };
    for (const c of cases.slice(0, 20)) await ask(c.query);
    mine = await measure(cases, ask);
  } finally {
    await gitdex.close();
  }
  const fuse = new Fuse(paths, { includeScore: true });
  for (const c of cases.slice(0, 20)) fuse.search(c.query, { limit: 5 });
  const theirs = await measure(cases, (q) => fuse.search(q, { limit: 5 }).map((r) => r.item));

  const latency = figure(`gitdex (${backend.name}) via MCP stdio`, 'ms', mine.latencies);
  const pick = (hits: boolean[], indices: number[]) => indices.map((i) => hits[i]!);
  ctx.results.rows.push(
    row({ suite: 'suggest', backend: backend.name, case: `suggest_paths latency (${cases.length} queries, ${paths.length} paths)`, value: latency, baseline: figure('fuse.js in process', 'ms', theirs.latencies), target: upperTarget(latency, { p99: 20 }, 'p99 ≤ 20 ms') }),
    accuracyRow(backend.name, `top-1 accuracy (${oneAnswer.length} cases, one right answer each)`, pick(mine.top1, oneAnswer), pick(theirs.top1, oneAnswer), '≥ 95 % and ahead of fuse.js'),
    accuracyRow(backend.name, `top-1 accuracy, ambiguous queries (${ambiguous.length}: any path that fits equally)`, pick(mine.top1, ambiguous), pick(theirs.top1, ambiguous)),
    accuracyRow(backend.name, `top-5 accuracy (${oneAnswer.length} cases, one right answer each)`, pick(mine.top5, oneAnswer), pick(theirs.top5, oneAnswer)),
  );
  const kinds = [...new Set(cases.map((c) => c.kind))];
  ctx.results.profiles.push({
    title: `suggest_paths by kind of mistake on ${backend.name}: top-1 (gitdex % / fuse.js %) and latency`,
    lines: [
      `one right answer: ${byKind(cases, mine, theirs, oneAnswer)}`,
      `ambiguous queries: ${byKind(cases, mine, theirs, ambiguous)}`,
      `gitdex latency by kind, median/max ms: ${kinds
        .map((kind) => {
          const times = cases.flatMap((c, i) => (c.kind === kind ? [mine.latencies[i]!] : []));
          return `${kind} ${median(times).toFixed(1)}/${extent(times).max.toFixed(1)}`;
        })
        .join(', ')}`,
    ],
  });
}
