import Fuse from 'fuse.js';
import { isResolvable, makeCases, type SuggestCase } from '../../services/reader/test/support/suggest-cases';
import { callOk } from '../mcp/clients';
import { figure, row, upperTarget } from '../report/model';
import type { Backend } from '../setup/backends';
import { median } from '../measure/stats';
import type { SuiteContext } from './context';
import { startGitdexStdio } from './reads';

interface Outcome {
  latencies: number[];
  top1: boolean[];
  top5: boolean[];
}

async function measure(cases: SuggestCase[], suggest: (query: string) => Promise<string[]> | string[]): Promise<Outcome> {
  const out: Outcome = { latencies: [], top1: [], top5: [] };
  for (const c of cases) {
    const started = performance.now();
    const paths = await suggest(c.query);
    out.latencies.push(performance.now() - started);
    out.top1.push(paths[0] === c.expected);
    out.top5.push(paths.slice(0, 5).includes(c.expected));
  }
  return out;
}

const percent = (hits: boolean[]) => (100 * hits.filter(Boolean).length) / Math.max(1, hits.length);

/**
 * suggest_paths through MCP stdio beside fuse.js (in process, default options) on the same
 * generated cases from the medium repository's real paths: latency and top-1/top-5 accuracy.
 */
export async function suggestSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const paths = ctx.repos.medium.corpus.files.map((f) => f.path);
  const cases = makeCases(paths, { perKind: ctx.config.suggest.perKind, seed: ctx.config.suggest.seed });
  const resolvable = cases.map((c) => isResolvable(c, paths));
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
  const only = (hits: boolean[]) => hits.filter((_, i) => resolvable[i]);
  ctx.results.rows.push(
    row({ suite: 'suggest', backend: backend.name, case: `suggest_paths latency (${cases.length} cases, ${paths.length} paths)`, value: latency, baseline: figure('fuse.js in process', 'ms', theirs.latencies), target: upperTarget(latency, { p99: 20 }, 'p99 ≤ 20 ms') }),
    row({ suite: 'suggest', backend: backend.name, case: 'top-1 accuracy, all cases', value: figure('gitdex', '%', [percent(mine.top1)]), baseline: figure('fuse.js', '%', [percent(theirs.top1)]), target: { text: '≥ 95 % and ahead of fuse.js', met: percent(mine.top1) >= 95 && percent(mine.top1) > percent(theirs.top1) } }),
    row({ suite: 'suggest', backend: backend.name, case: `top-1 accuracy, unambiguous cases (${resolvable.filter(Boolean).length})`, value: figure('gitdex', '%', [percent(only(mine.top1))]), baseline: figure('fuse.js', '%', [percent(only(theirs.top1))]), target: { text: '≥ 95 % and ahead of fuse.js', met: percent(only(mine.top1)) >= 95 && percent(only(mine.top1)) > percent(only(theirs.top1)) } }),
    row({ suite: 'suggest', backend: backend.name, case: 'top-5 accuracy, all cases', value: figure('gitdex', '%', [percent(mine.top5)]), baseline: figure('fuse.js', '%', [percent(theirs.top5)]) }),
  );
  const kinds = [...new Set(cases.map((c) => c.kind))];
  ctx.results.profiles.push({
    title: `suggest_paths by kind of mistake on ${backend.name}: top-1 (gitdex % / fuse.js %) and latency`,
    lines: [
      kinds
        .map((kind) => {
          const idx = cases.map((c, i) => (c.kind === kind ? i : -1)).filter((i) => i >= 0);
          return `${kind} ${percent(idx.map((i) => mine.top1[i]!)).toFixed(0)}/${percent(idx.map((i) => theirs.top1[i]!)).toFixed(0)}`;
        })
        .join(', '),
      `gitdex latency by kind, median/max ms: ${kinds
        .map((kind) => {
          const times = cases.flatMap((c, i) => (c.kind === kind ? [mine.latencies[i]!] : []));
          return `${kind} ${median(times).toFixed(1)}/${Math.max(...times).toFixed(1)}`;
        })
        .join(', ')}`,
    ],
  });
}
