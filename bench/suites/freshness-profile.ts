import type { RequestLogEntry } from '../../test/github-standin/request-log';
import { formatNumber } from '../report/format';
import { startTimingProxy, type ProxiedRequest } from '../measure/http-proxy';
import { commitToken, pushAndWait, type PushSample } from '../measure/push';
import { extent, median } from '../measure/stats';
import { sleep } from '../measure/timer';
import type { Backend } from '../setup/backends';
import { OWNER } from '../setup/repos';
import type { SuiteContext } from './context';
import { bulkShareProfile } from './indexing-profile';

const ms = (v: number[]) => formatNumber(median(v), 'ms');
const within = (s: PushSample, start: number, end: number) => start >= s.sentAt && end <= s.seenAt;

/** The stand-in's log entries of one push: the GitHub calls its indexing made. */
function githubCallsOf(entries: RequestLogEntry[], s: PushSample, repositoryId: number): RequestLogEntry[] {
  return entries.filter((e) => {
    const end = Date.parse(e.at);
    return within(s, end - e.durationMs, end) && (e.path.includes(`/repos/${OWNER}/${s.repo}/`) || e.path.endsWith(`/repos/${OWNER}/${s.repo}`) || e.path.includes(`/repositories/${repositoryId}`));
  });
}

/** Per push, how long the stand-in took to answer the indexer's GitHub calls (the sum of their durations). */
export async function githubAnswerMs(ctx: SuiteContext, samples: PushSample[], entries: RequestLogEntry[]): Promise<number[]> {
  const out: number[] = [];
  for (const s of samples) {
    const id = await ctx.standIn.repoId(OWNER, s.repo);
    out.push(githubCallsOf(entries, s, id).reduce((sum, e) => sum + e.durationMs, 0));
  }
  return out;
}

/** Splits each push into phases from the stand-in's request log: where the time goes. */
export async function githubPhases(ctx: SuiteContext, samples: PushSample[], entries: RequestLogEntry[]): Promise<string[]> {
  const ids = new Map<string, number>();
  for (const s of samples) if (!ids.has(s.repo)) ids.set(s.repo, await ctx.standIn.repoId(OWNER, s.repo));
  const queue: number[] = [];
  const github: number[] = [];
  const write: number[] = [];
  const calls: number[] = [];
  const byRoute = new Map<string, { perPush: number[]; durations: number[] }>();
  for (const s of samples) {
    const mine = githubCallsOf(entries, s, ids.get(s.repo)!);
    if (mine.length === 0) continue;
    const first = extent(mine.map((e) => Date.parse(e.at) - e.durationMs)).min;
    const last = extent(mine.map((e) => Date.parse(e.at))).max;
    queue.push(first - (s.sentAt + s.ackMs));
    github.push(last - first);
    write.push(s.seenAt - last);
    calls.push(mine.length);
    const counts = new Map<string, number>();
    for (const e of mine) {
      counts.set(e.route, (counts.get(e.route) ?? 0) + 1);
      const r = byRoute.get(e.route) ?? { perPush: [], durations: [] };
      r.durations.push(e.durationMs);
      byRoute.set(e.route, r);
    }
    for (const [route, n] of counts) byRoute.get(route)!.perPush.push(n);
  }
  const answers = await githubAnswerMs(ctx, samples, entries);
  const own = samples.map((s, i) => s.freshnessMs - answers[i]!);
  const routes = [...byRoute.entries()].map(([route, r]) => `${route.replace(/^GET /, '')} ×${median(r.perPush)} (${ms(r.durations)} each)`).join('; ');
  return [
    `webhook → 202 (event in the log): ${ms(samples.map((s) => s.ackMs))}`,
    `202 → the indexer's first GitHub call (event log → worker, consume latency): ${ms(queue)}`,
    `the indexer's GitHub calls, first to last (${median(calls)} calls a push, to the local stand-in): ${ms(github)} — ${routes}`,
    `last GitHub call → new content readable (index writes, refresh, ref-state flip; plus up to ${ctx.config.freshness.pollMs} ms of polling): ${ms(write)}`,
    `the stand-in's answers to those calls take ${ms(answers)} a push in all; the rest of the freshness, gitdex's own share, ${ms(own)}`,
  ];
}

/** Per push: how many Elasticsearch requests of each kind the indexer made, and their time. */
function elasticsearchBreakdown(samples: PushSample[], requests: ProxiedRequest[]): string[] {
  const ops = new Map<string, { counts: number[]; totals: number[] }>();
  const totals: number[] = [];
  for (const s of samples) {
    const mine = requests.filter((r) => within(s, r.start, r.end));
    const per = new Map<string, { n: number; ms: number }>();
    for (const r of mine) {
      const e = per.get(r.op) ?? { n: 0, ms: 0 };
      e.n += 1;
      e.ms += r.end - r.start;
      per.set(r.op, e);
    }
    totals.push(mine.reduce((sum, r) => sum + (r.end - r.start), 0));
    for (const [op, e] of per) {
      const o = ops.get(op) ?? { counts: [], totals: [] };
      o.counts.push(e.n);
      o.totals.push(e.ms);
      ops.set(op, o);
    }
  }
  const lines = [...ops.entries()].sort((a, b) => median(b[1].totals) - median(a[1].totals)).map(([op, o]) => `${op}: ${median(o.counts)} a push, ${ms(o.totals)} a push in all`);
  return [`Elasticsearch requests of the indexer, per push (${samples.length} idle one-file pushes; summed time ${ms(totals)}): ${lines.join('; ')}`];
}

/**
 * A profiling pass (not part of the figures): the indexer restarted with Elasticsearch behind a
 * timing proxy, then idle one-file pushes and one full index of the large repository;
 * answers where each spends its time.
 */
export async function elasticsearchProfile(ctx: SuiteContext, backend: Backend, pushes: number): Promise<{ freshness: string[]; indexing: string[] }> {
  if (!backend.restartIndexer || !ctx.engines) return { freshness: [], indexing: [] };
  const proxy = await startTimingProxy(ctx.engines.elasticsearchUrl);
  try {
    await backend.restartIndexer({ ELASTICSEARCH_URL: proxy.url });
    const push = { standIn: ctx.standIn, readerUrl: backend.readerUrl };
    const options = { intervalMs: ctx.config.freshness.pollMs, timeoutMs: 120_000 };
    const repos = ctx.repos.fresh;
    // The first push waits for the new member to join the consumer group.
    await pushAndWait(push, repos[0]!, await commitToken(repos[0]!), options);
    ctx.standIn.requests.reset();
    const samples: PushSample[] = [];
    for (let i = 0; i < pushes; i += 1) {
      const repo = repos[i % repos.length]!;
      samples.push(await pushAndWait(push, repo, await commitToken(repo), options));
      await sleep(100);
    }
    const freshness = [
      `profiling pass: ${pushes} idle one-file pushes with the indexer's Elasticsearch behind a timing proxy (median freshness ${ms(samples.map((s) => s.freshnessMs))}; not part of the figures)`,
      ...(await githubPhases(ctx, samples, ctx.standIn.requests.list())),
      ...elasticsearchBreakdown(samples, proxy.requests),
    ];
    // The full index of the large repository needs it built: only runs with the indexing suite build it.
    return { freshness, indexing: ctx.repos.large ? await bulkShareProfile(ctx, backend, proxy.requests) : [] };
  } finally {
    // Back to an indexer on the engine itself: one left on the closed proxy would retry every
    // event it is handed (a redelivered one included) for the rest of the run.
    await backend.restartIndexer({});
    await proxy.close();
  }
}
