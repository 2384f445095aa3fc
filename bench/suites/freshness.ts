import { figure, row, upperTarget } from '../report/model';
import { commitFunction, commitToken, pushAndFind, pushAndWait, type PushSample, type SymbolPushSample } from '../measure/push';
import { percentile } from '../measure/stats';
import { busyShare, machineCpu, processCpuSeconds } from '../scaling/cpu';
import { sleep } from '../measure/timer';
import type { Backend } from '../setup/backends';
import type { BenchRepo } from '../setup/repos';
import { ZERO_SHA, type SuiteContext } from './context';
import { elasticsearchProfile, githubPhases } from './freshness-profile';

/** Puts every freshness repository in the index first (their first index is not a sample). */
async function indexAll(ctx: SuiteContext, backend: Backend): Promise<void> {
  const push = { standIn: ctx.standIn, readerUrl: backend.readerUrl };
  const repos = ctx.repos.fresh;
  for (let i = 0; i < repos.length; i += 4) {
    await Promise.all(repos.slice(i, i + 4).map((repo) => pushAndWait(push, repo, null, { intervalMs: 50, timeoutMs: 120_000, before: ZERO_SHA })));
  }
}

async function onePush(ctx: SuiteContext, backend: Backend, repo: BenchRepo): Promise<PushSample> {
  const token = await commitToken(repo);
  return pushAndWait({ standIn: ctx.standIn, readerUrl: backend.readerUrl }, repo, token, { intervalMs: ctx.config.freshness.pollMs, timeoutMs: 60_000 });
}

/**
 * The run's shape, from the config unless the environment asks for the latency scenario
 * (docs/journal/2026-12-04-in-flight.md): BENCH_GITHUB_LATENCY_MS delays every GitHub API
 * answer of the idle and stream phases alike (the stand-in's `latency` fault);
 * BENCH_FRESHNESS_RATES=4,8,… runs one stream a rate; BENCH_FRESHNESS_SECONDS and
 * BENCH_FRESHNESS_IDLE_SAMPLES size them. The deep profiling pass is skipped in that scenario.
 */
function scenario(ctx: SuiteContext) {
  const num = (name: string): number | undefined => {
    const text = process.env[name];
    if (text === undefined || text === '') return undefined;
    const n = Number(text);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got ${text})`);
    return n;
  };
  const rates = (process.env.BENCH_FRESHNESS_RATES ?? '')
    .split(',')
    .map((r) => Number(r.trim()))
    .filter((r) => Number.isFinite(r) && r > 0);
  const { streamRate, streamSeconds, idleSamples } = ctx.config.freshness;
  return {
    latencyMs: num('BENCH_GITHUB_LATENCY_MS') ?? 0,
    rates: rates.length > 0 ? rates : [streamRate],
    seconds: num('BENCH_FRESHNESS_SECONDS') ?? streamSeconds,
    idleSamples: num('BENCH_FRESHNESS_IDLE_SAMPLES') ?? idleSamples,
    profile: rates.length === 0,
  };
}

const pct = (samples: PushSample[], p: number) =>
  percentile(
    samples.map((s) => s.freshnessMs),
    p,
  ).toFixed(0);

/** One push at a time, with a pause between: the system is otherwise idle. */
async function idle(ctx: SuiteContext, backend: Backend, count: number): Promise<PushSample[]> {
  const samples: PushSample[] = [];
  for (let i = 0; i < count; i += 1) {
    samples.push(await onePush(ctx, backend, ctx.repos.fresh[i % ctx.repos.fresh.length]!));
    await sleep(100);
  }
  return samples;
}

/**
 * One push at a time of a new TypeScript function (when its content, `find_symbol` and
 * `file_outline` show it), alternating with the one-file Markdown push of the idle phase, so
 * what parsing adds to freshness is measured beside it in the same minutes.
 */
async function idleSymbols(ctx: SuiteContext, backend: Backend, count: number): Promise<{ samples: SymbolPushSample[]; plain: PushSample[] }> {
  const samples: SymbolPushSample[] = [];
  const plain: PushSample[] = [];
  for (let i = 0; i < count; i += 1) {
    const repo = ctx.repos.fresh[i % ctx.repos.fresh.length]!;
    const name = await commitFunction(repo);
    samples.push(await pushAndFind({ standIn: ctx.standIn, readerUrl: backend.readerUrl }, repo, name, { intervalMs: ctx.config.freshness.pollMs, timeoutMs: 60_000 }));
    await sleep(100);
    plain.push(await onePush(ctx, backend, repo));
    await sleep(100);
  }
  return { samples, plain };
}

/** The symbol phase's row: push → findable against push → readable of the same pushes. */
async function symbolFreshness(ctx: SuiteContext, backend: Backend, count: number, at: string): Promise<void> {
  const { samples, plain } = await idleSymbols(ctx, backend, count);
  const of = (key: 'freshnessMs' | 'findableMs' | 'outlinedMs', p: number) =>
    percentile(
      samples.map((s) => s[key]),
      p,
    ).toFixed(0);
  const markdown = (p: number) =>
    percentile(
      plain.map((s) => s.freshnessMs),
      p,
    ).toFixed(0);
  ctx.log(
    `  ${backend.name} symbols idle${at}: find_symbol p50 ${of('findableMs', 0.5)} ms, p99 ${of('findableMs', 0.99)} ms; file_outline p50 ${of('outlinedMs', 0.5)} ms; content p50 ${of('freshnessMs', 0.5)} ms; Markdown pushes between them p50 ${markdown(0.5)} ms`,
  );
  const value = figure(
    'webhook → find_symbol finds the function',
    'ms',
    samples.map((s) => s.findableMs),
  );
  ctx.results.rows.push(
    row({
      suite: 'freshness',
      backend: backend.name,
      case: `idle: a pushed function, one push at a time${at}`,
      value,
      baseline: figure(
        'webhook → its file readable (same pushes)',
        'ms',
        samples.map((s) => s.freshnessMs),
      ),
      target: upperTarget(value, { median: 500 }, 'p50 ≤ 500 ms'),
      note: `file_outline lists it: p50 ${of('outlinedMs', 0.5)} ms, p99 ${of('outlinedMs', 0.99)} ms; a one-file Markdown push alternated with these (nothing to parse): p50 ${markdown(0.5)} ms, p99 ${markdown(0.99)} ms; the three reads are polled in turn each round`,
    }),
  );
}

/**
 * Open loop: a push starts every 1/rate seconds whether or not earlier ones are readable yet,
 * each to a repository with no push in flight (so every push has content of its own to show).
 */
async function stream(ctx: SuiteContext, backend: Backend, streamRate: number, streamSeconds: number): Promise<{ samples: PushSample[]; skipped: number }> {
  const busy = new Set<string>();
  const samples: PushSample[] = [];
  const running: Promise<void>[] = [];
  const errors: unknown[] = [];
  let skipped = 0;
  let next = 0;
  const started = Date.now();
  const total = Math.round(streamRate * streamSeconds);
  for (let k = 0; k < total; k += 1) {
    const due = started + (k * 1000) / streamRate;
    if (due > Date.now()) await sleep(due - Date.now());
    const repos = ctx.repos.fresh;
    let repo: BenchRepo | undefined;
    for (let tries = 0; tries < repos.length && !repo; tries += 1) {
      const candidate = repos[next % repos.length]!;
      next += 1;
      if (!busy.has(candidate.name)) repo = candidate;
    }
    if (!repo) {
      skipped += 1;
      continue;
    }
    const chosen = repo;
    busy.add(chosen.name);
    running.push(
      onePush(ctx, backend, chosen)
        .then(
          (s) => void samples.push(s),
          (e: unknown) => void errors.push(e),
        )
        .finally(() => busy.delete(chosen.name)),
    );
  }
  await Promise.all(running);
  if (errors.length > 0) throw errors[0];
  return { samples, skipped };
}

export async function freshnessSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  await indexAll(ctx, backend);
  const run = scenario(ctx);
  const latency = run.latencyMs > 0 ? ctx.standIn.faults.add({ type: 'latency', ms: run.latencyMs }) : undefined;
  const at = latency ? `, GitHub +${run.latencyMs} ms an API call` : '';
  try {
    ctx.standIn.requests.reset();
    const quiet = await idle(ctx, backend, run.idleSamples);
    const quietLog = ctx.standIn.requests.list();
    ctx.log(`  ${backend.name} freshness idle${at}: p50 ${pct(quiet, 0.5)} ms, p90 ${pct(quiet, 0.9)} ms, p99 ${pct(quiet, 0.99)} ms`);
    ctx.results.profiles.push({ title: `Freshness on ${backend.name}, idle${at} (medians per push)`, lines: await githubPhases(ctx, quiet, quietLog) });
    ctx.results.rows.push(
      row({
        suite: 'freshness',
        backend: backend.name,
        case: `idle: one push at a time${at}`,
        value: figure(
          'webhook → readable',
          'ms',
          quiet.map((s) => s.freshnessMs),
        ),
        baseline: figure(
          'webhook → 202 (Kafka/log ack)',
          'ms',
          quiet.map((s) => s.ackMs),
        ),
      }),
    );
    await symbolFreshness(ctx, backend, Math.min(run.idleSamples, 30), at);
    for (const rate of run.rates) {
      ctx.standIn.requests.reset();
      const cpuBefore = processCpuSeconds(backend.indexer.pid);
      const machineBefore = machineCpu();
      const began = Date.now();
      const busy = await stream(ctx, backend, rate, run.seconds);
      const wall = (Date.now() - began) / 1000;
      const indexerCores = (processCpuSeconds(backend.indexer.pid) - cpuBefore) / wall;
      const machineBusy = busyShare(machineBefore, machineCpu());
      const busyLog = ctx.standIn.requests.list();
      const label = `under a stream of ${rate} pushes/s for ${run.seconds} s across ${ctx.repos.fresh.length} repositories${at}`;
      ctx.log(
        `  ${backend.name} freshness ${label}: p50 ${pct(busy.samples, 0.5)} ms, p90 ${pct(busy.samples, 0.9)} ms, p99 ${pct(busy.samples, 0.99)} ms (idle p50 ${pct(quiet, 0.5)} ms, p99 ${pct(quiet, 0.99)} ms); ${busy.skipped} skipped; indexer CPU ${indexerCores.toFixed(2)} cores, machine ${(machineBusy * 100).toFixed(0)} % busy`,
      );
      const value = figure(
        'webhook → readable',
        'ms',
        busy.samples.map((s) => s.freshnessMs),
      );
      const t = backend.name === 'elasticsearch' ? upperTarget(value, { median: 500, p99: 2000 }, 'p50 ≤ 500 ms, p99 ≤ 2 s') : undefined;
      const notes = [`p90 ${pct(busy.samples, 0.9)} ms`, busy.skipped > 0 ? `${busy.skipped} pushes skipped: every repository busy` : ''].filter(Boolean).join('; ');
      ctx.results.rows.push(
        row({
          suite: 'freshness',
          backend: backend.name,
          case: label,
          value,
          baseline: figure(
            'idle: one push at a time',
            'ms',
            quiet.map((s) => s.freshnessMs),
          ),
          ...(t ? { target: t } : {}),
          ...(notes ? { note: notes } : {}),
        }),
      );
      ctx.results.profiles.push({
        title: `Freshness on ${backend.name}, ${label} (medians per push)`,
        lines: [
          `push → readable p50 ${pct(busy.samples, 0.5)} ms, p90 ${pct(busy.samples, 0.9)} ms, p99 ${pct(busy.samples, 0.99)} ms; idle in the same run p50 ${pct(quiet, 0.5)} ms, p90 ${pct(quiet, 0.9)} ms, p99 ${pct(quiet, 0.99)} ms`,
          `the indexer process used ${indexerCores.toFixed(2)} cores over the stream and its drain (${wall.toFixed(0)} s); the machine (shared) was ${(machineBusy * 100).toFixed(0)} % busy`,
          ...(await githubPhases(ctx, busy.samples, busyLog)),
        ],
      });
    }
  } finally {
    if (latency) ctx.standIn.faults.remove(latency.id);
  }
  if (!run.profile) return;
  const deep = await elasticsearchProfile(ctx, backend, Math.min(30, ctx.config.freshness.idleSamples));
  if (deep.freshness.length > 0) ctx.results.profiles.push({ title: `Freshness on ${backend.name}: where an idle one-file push spends its time`, lines: deep.freshness });
  if (deep.indexing.length > 0) ctx.results.profiles.push({ title: `Full index on ${backend.name}: how much of it is bulk writing`, lines: deep.indexing });
}
