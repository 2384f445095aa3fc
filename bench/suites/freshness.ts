import { figure, row, upperTarget } from '../report/model';
import { commitToken, pushAndWait, type PushSample } from '../measure/push';
import { median } from '../measure/stats';
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

/** One push at a time, with a pause between: the system is otherwise idle. */
async function idle(ctx: SuiteContext, backend: Backend): Promise<PushSample[]> {
  const samples: PushSample[] = [];
  for (let i = 0; i < ctx.config.freshness.idleSamples; i += 1) {
    samples.push(await onePush(ctx, backend, ctx.repos.fresh[i % ctx.repos.fresh.length]!));
    await sleep(100);
  }
  return samples;
}

/**
 * Open loop: a push starts every 1/rate seconds whether or not earlier ones are readable yet,
 * each to a repository with no push in flight (so every push has content of its own to show).
 */
async function stream(ctx: SuiteContext, backend: Backend): Promise<{ samples: PushSample[]; skipped: number }> {
  const { streamRate, streamSeconds } = ctx.config.freshness;
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
  ctx.standIn.requests.reset();
  const quiet = await idle(ctx, backend);
  const quietLog = ctx.standIn.requests.list();
  ctx.log(`  ${backend.name} freshness idle: median ${median(quiet.map((s) => s.freshnessMs)).toFixed(0)} ms`);
  ctx.standIn.requests.reset();
  const busy = await stream(ctx, backend);
  const busyLog = ctx.standIn.requests.list();
  ctx.log(`  ${backend.name} freshness under a stream: median ${median(busy.samples.map((s) => s.freshnessMs)).toFixed(0)} ms (${busy.skipped} skipped)`);
  const { streamRate, streamSeconds } = ctx.config.freshness;
  const target = (v: ReturnType<typeof figure>) => (backend.name === 'elasticsearch' ? upperTarget(v, { median: 500, p99: 2000 }, 'p50 ≤ 500 ms, p99 ≤ 2 s') : undefined);
  for (const [label, samples, note] of [
    ['idle: one push at a time', quiet, undefined],
    [
      `under a stream of ${streamRate} pushes/s for ${streamSeconds} s across ${ctx.repos.fresh.length} repositories`,
      busy.samples,
      busy.skipped > 0 ? `${busy.skipped} pushes skipped: every repository busy` : undefined,
    ],
  ] as const) {
    const value = figure(
      'webhook → readable',
      'ms',
      samples.map((s) => s.freshnessMs),
    );
    const t = target(value);
    ctx.results.rows.push(
      row({
        suite: 'freshness',
        backend: backend.name,
        case: label,
        value,
        baseline: figure(
          'webhook → 202 (Kafka/log ack)',
          'ms',
          samples.map((s) => s.ackMs),
        ),
        ...(t ? { target: t } : {}),
        ...(note ? { note } : {}),
      }),
    );
  }
  ctx.results.profiles.push(
    { title: `Freshness on ${backend.name}, idle (medians per push)`, lines: await githubPhases(ctx, quiet, quietLog) },
    { title: `Freshness on ${backend.name}, under the stream (medians per push)`, lines: await githubPhases(ctx, busy.samples, busyLog) },
  );
  const deep = await elasticsearchProfile(ctx, backend, Math.min(30, ctx.config.freshness.idleSamples));
  if (deep.freshness.length > 0) ctx.results.profiles.push({ title: `Freshness on ${backend.name}: where an idle one-file push spends its time`, lines: deep.freshness });
  if (deep.indexing.length > 0) ctx.results.profiles.push({ title: `Full index on ${backend.name}: how much of it is bulk writing`, lines: deep.indexing });
}
