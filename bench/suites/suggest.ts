import { makeCaseSets, type SuggestCase } from '../../services/reader/test/support/suggest-cases';
import { startGitdex } from '../gitdex/child';
import { callOk, connectHttp, type McpConnection } from '../mcp/clients';
import { FUSE_DEFAULTS, FUSE_FOR_PATHS, fuseTop } from '../suggest-heldout/fuse';
import { figure, row, upperTarget } from '../report/model';
import type { Backend } from '../setup/backends';
import type { SuiteContext } from './context';
import { startGitdexStdio } from './reads';

interface Outcome {
  latencies: number[];
  top1: boolean[];
  top5: boolean[];
}

/** A hit is any of the case's answers: its one path, or any path that fits an ambiguous query equally. */
async function measure(cases: readonly { query: string; answers: string[] }[], suggest: (query: string) => Promise<string[]> | string[]): Promise<Outcome> {
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

function accuracyRow(backend: string, name: string, mine: boolean[], theirs: boolean[], fuseLabel: string, target?: string) {
  const [ours, fuse] = [percent(mine), percent(theirs)];
  return row({
    suite: 'suggest',
    backend,
    case: name,
    value: figure('gitdex', '%', [ours]),
    baseline: figure(fuseLabel, '%', [fuse]),
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

type Ask = (query: string) => Promise<string[]>;

/** A fresh reader answering suggest_paths over stdio (main.js --stdio) or Streamable HTTP (a reader process). */
async function freshSuggester(backend: Backend, transport: 'stdio' | 'http', repository: string): Promise<{ ask: Ask; close(): Promise<void> }> {
  let connection: McpConnection;
  let stop = (): Promise<void> => Promise.resolve();
  if (transport === 'stdio') connection = await startGitdexStdio(backend);
  else {
    const reader = await startGitdex({ ...backend.readEnv, GITDEX_ROLE: 'reader' }, `${backend.name} reader`);
    stop = () => reader.stop();
    connection = await connectHttp(`${reader.url}/mcp`).catch(async (error: unknown) => {
      await reader.stop();
      throw error;
    });
  }
  const ask: Ask = async (query) => {
    const result = await callOk(connection.client, 'suggest_paths', { repository, query, limit: 5 });
    return ((result.structuredContent as { suggestions?: { path: string }[] } | undefined)?.suggestions ?? []).map((s) => s.path);
  };
  return {
    ask,
    close: async () => {
      await connection.close().catch(() => undefined);
      await stop();
    },
  };
}

const LATENCY_TARGET = { median: 5, p99: 20 };

/**
 * Cold then warm suggest_paths latency on a fresh reader: every query asked once (the first
 * suggestion of that query in the repository), then all of them a second time (warm). One
 * unmeasured query outside the set first, so the process's start-up is not in a figure.
 */
async function latencyPass(
  ctx: SuiteContext,
  backend: Backend,
  transport: 'stdio' | 'http',
  repository: string,
  queries: readonly { query: string; answers: string[] }[],
  pathCount: number,
  what: string,
  fuseMs: number[],
): Promise<Outcome> {
  const suggester = await freshSuggester(backend, transport, repository);
  let cold: Outcome;
  let warm: Outcome;
  try {
    await suggester.ask('a-warm-up-query-outside-the-set.txt');
    cold = await measure(queries, suggester.ask);
    warm = await measure(queries, suggester.ask);
  } finally {
    await suggester.close();
  }
  const over = transport === 'stdio' ? 'MCP stdio' : 'MCP Streamable HTTP';
  for (const [label, outcome] of [
    ['cold (first ask of each query, fresh reader)', cold],
    ['warm (each query asked again)', warm],
  ] as const) {
    const value = figure(`gitdex (${backend.name}) via ${over}`, 'ms', outcome.latencies);
    ctx.results.rows.push(
      row({
        suite: 'suggest',
        backend: backend.name,
        case: `${label}: suggest_paths latency, ${queries.length} queries, ${what} (${pathCount.toLocaleString('en-US')} paths), ${over}`,
        value,
        baseline: figure('fuse.js (defaults) in process', 'ms', fuseMs),
        target: upperTarget(value, LATENCY_TARGET, 'p50 ≤ 5 ms, p99 ≤ 20 ms'),
      }),
    );
    ctx.log(`  ${backend.name} ${label} ${what} ${over}: p50 ${value.summary.median.toFixed(2)} ms, p99 ${value.summary.p99.toFixed(2)} ms`);
  }
  return cold;
}

/**
 * suggest_paths beside fuse.js (in process) on the tuning generator's cases from the medium
 * repository's real paths: latency cold and warm, over stdio and HTTP; top-1/top-5 on all
 * cases with the one-answer/ambiguous split, against the better of fuse.js with its
 * defaults and fuse.js with the options best for paths. The held-out set (trees nobody tuned
 * on) is measured by bench/suggest-heldout/evaluate.ts. On the large repository (when the
 * indexing suite indexed it), latency over HTTP.
 */
export async function suggestSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const paths = ctx.repos.medium.corpus.files.map((f) => f.path);
  const sets = makeCaseSets(paths, { perKind: ctx.config.suggest.perKind, seed: ctx.config.suggest.seed });
  const cases = [...sets.oneAnswer, ...sets.ambiguous];
  const oneAnswer = sets.oneAnswer.map((_, i) => i);
  const ambiguous = sets.ambiguous.map((_, i) => sets.oneAnswer.length + i);
  const all = cases.map((_, i) => i);
  const repository = ctx.repos.medium.fullName;

  const fuseDefaults = fuseTop(paths, FUSE_DEFAULTS);
  const fuseForPaths = fuseTop(paths, FUSE_FOR_PATHS);
  for (const c of cases.slice(0, 20)) fuseDefaults(c.query);
  const theirsDefaults = await measure(cases, fuseDefaults);
  const theirsForPaths = await measure(cases, fuseForPaths);
  const defaultsWin = percent(theirsDefaults.top1) >= percent(theirsForPaths.top1);
  const theirs = defaultsWin ? theirsDefaults : theirsForPaths;
  const fuseLabel = defaultsWin ? 'fuse.js (defaults; better than with path options)' : 'fuse.js (options for paths; better than defaults)';

  // The cold pass's answers give the accuracy (a warm pass answers the same).
  const mine = await latencyPass(ctx, backend, 'stdio', repository, cases, paths.length, 'medium repository', theirsDefaults.latencies);
  await latencyPass(ctx, backend, 'http', repository, cases, paths.length, 'medium repository', theirsDefaults.latencies);

  const pick = (h: boolean[], indices: number[]) => indices.map((i) => h[i]!);
  ctx.results.rows.push(
    accuracyRow(
      backend.name,
      `tuning set: top-1 accuracy, all ${all.length} cases (${oneAnswer.length} one-answer, ${ambiguous.length} ambiguous)`,
      pick(mine.top1, all),
      pick(theirs.top1, all),
      fuseLabel,
      '≥ 95 % and ahead of fuse.js',
    ),
    accuracyRow(backend.name, `tuning set: top-1 accuracy, ${oneAnswer.length} one-answer cases`, pick(mine.top1, oneAnswer), pick(theirs.top1, oneAnswer), fuseLabel),
    accuracyRow(backend.name, `tuning set: top-1 accuracy, ${ambiguous.length} ambiguous cases (any path that fits equally)`, pick(mine.top1, ambiguous), pick(theirs.top1, ambiguous), fuseLabel),
    accuracyRow(backend.name, `tuning set: top-5 accuracy, all ${all.length} cases`, pick(mine.top5, all), pick(theirs.top5, all), fuseLabel),
  );
  ctx.results.profiles.push({
    title: `suggest_paths by kind of mistake on ${backend.name} (tuning set): top-1 (gitdex % / ${fuseLabel} %)`,
    lines: [
      `fuse.js top-1 on all ${all.length} cases: defaults ${percent(theirsDefaults.top1).toFixed(1)} %, options for paths ${percent(theirsForPaths.top1).toFixed(1)} %`,
      `one right answer: ${byKind(cases, mine, theirs, oneAnswer)}`,
      `ambiguous queries: ${byKind(cases, mine, theirs, ambiguous)}`,
    ],
  });

  // The large repository: only a run with the indexing suite builds and indexes it.
  const large = ctx.repos.large;
  if (!large) {
    ctx.results.notes.push(`${backend.name}: suggest_paths on the large repository not measured: only runs with the indexing suite build it`);
    return;
  }
  const largePaths = large.corpus.files.map((f) => f.path);
  const largeCases = makeCaseSets(largePaths, { perKind: Math.max(4, Math.floor(ctx.config.suggest.perKind / 3)), seed: ctx.config.suggest.seed });
  const largeQueries = [...largeCases.oneAnswer, ...largeCases.ambiguous];
  const largeFuse = fuseTop(largePaths, FUSE_DEFAULTS);
  const largeFuseMs = (await measure(largeQueries.slice(0, 50), largeFuse)).latencies;
  await latencyPass(ctx, backend, 'http', large.fullName, largeQueries, largePaths.length, 'large repository', largeFuseMs);
}
