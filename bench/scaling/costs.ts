// Per-push costs for the capacity model: pushes that change k files (1, 10, 100 of a 120-file
// repository), one at a time, each waited for until readable through the reader, with every
// counter read before and after the batch (meter.ts). Each component's idle CPU (heartbeats, the
// lag gauge, JVM housekeeping) is measured just before each batch and taken off.
import { setTimeout as sleep } from 'node:timers/promises';
import type { GitHubStandIn } from '../../test/github-standin/server';
import { median } from '../measure/stats';
import type { Fleet } from './fleet';
import { reading, snapshot, type MeterContext, type MeterReading } from './meter';
import { prepareCommits, pushNext, type ScaleRepo } from './repos';

export interface CostRow {
  files: number;
  pushes: number;
  /** CPU-seconds a push of each component, net of its idle CPU over the same time (measured just before). */
  indexerCpuPerPush: number;
  /** Idle indexer CPU, seconds a second (what was taken off). */
  indexerIdleCpuRate: number;
  webhookCpuPerPush: number;
  readerCpuPerPush: number;
  elasticsearchCpuPerPush: number | null;
  kafkaCpuPerPush: number | null;
  /** GitHub API requests a push, and by route. */
  githubRequestsPerPush: number;
  routesPerPush: Record<string, number>;
  /** Documents indexed a push: primaries, and every copy (replicas too). */
  esDocsPerPush: number;
  esDocsPerPushAllCopies: number;
  /** Bytes of bulk requests a push, primaries and every copy (null: not reported). */
  esBulkBytesPerPush: number | null;
  esBulkBytesPerPushAllCopies: number | null;
  /** Kafka bytes a push event (key + value + headers), filled in from the topic afterwards. */
  kafkaBytesPerPush: number | null;
  freshnessMedianMs: number;
  meter: MeterReading;
}

/** Polls the reader until the repository's probe file says push `seq` or later; answers when. */
export async function waitReadable(readerUrl: string, repo: ScaleRepo, seq: number, timeoutMs = 120_000): Promise<number> {
  const path = repo.probePath.split('/').map(encodeURIComponent).join('/');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await fetch(`${readerUrl}/v1/repositories/${repo.owner}/${repo.name}/files/${path}`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (answer) {
      const text = await answer.text();
      const match = answer.status === 200 ? /push (\d+)/.exec(text) : null;
      if (match && Number(match[1]) >= seq) return Date.now();
    }
    await sleep(50);
  }
  throw new Error(`${repo.fullName}: push ${seq} not readable within ${timeoutMs / 1000} s`);
}

export async function measureCosts(standIn: GitHubStandIn, fleet: Fleet, meter: MeterContext, repos: Map<number, ScaleRepo>, pushes: number, log: (line: string) => void): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  for (const [k, repo] of repos) {
    await prepareCommits(repo, pushes, k);
    // Every component's CPU when nothing is pushed (heartbeats, gauges, JVM housekeeping), over 8 s.
    const idleBefore = await snapshot(meter);
    await sleep(8000);
    const idle = reading(idleBefore, await snapshot(meter));
    const idleRate = (c: keyof MeterReading['cpu']) => idle.cpu[c] / idle.seconds;
    standIn.requests.reset();
    const before = await snapshot(meter);
    const fresh: number[] = [];
    for (let i = 0; i < pushes; i += 1) {
      const outcome = await pushNext(standIn, repo);
      if (!outcome || outcome.status !== 202) throw new Error(`${repo.fullName}: a cost push was not acknowledged (${outcome?.status ?? 'nothing prepared'})`);
      const seenAt = await waitReadable(fleet.readerFront.url, repo, outcome.seq);
      fresh.push(seenAt - outcome.sentAt);
    }
    const after = await snapshot(meter);
    const m = reading(before, after);
    const jvm = meter.jvmPids();
    const per = (x: number) => x / pushes;
    const net = (c: keyof MeterReading['cpu']) => per(Math.max(0, m.cpu[c] - idleRate(c) * m.seconds));
    const row: CostRow = {
      files: k,
      pushes,
      indexerCpuPerPush: net('indexer'),
      indexerIdleCpuRate: idleRate('indexer'),
      webhookCpuPerPush: net('webhook'),
      readerCpuPerPush: net('reader'),
      elasticsearchCpuPerPush: jvm.elasticsearch.length ? net('elasticsearch') : null,
      kafkaCpuPerPush: jvm.kafka.length ? net('kafka') : null,
      githubRequestsPerPush: per(m.githubRequests),
      routesPerPush: Object.fromEntries(Object.entries(m.routes).map(([route, n]) => [route, per(n)])),
      esDocsPerPush: per(m.es.primaryDocsIndexed),
      esDocsPerPushAllCopies: per(m.es.totalDocsIndexed),
      esBulkBytesPerPush: m.es.primaryBulkBytes === null ? null : per(m.es.primaryBulkBytes),
      esBulkBytesPerPushAllCopies: m.es.totalBulkBytes === null ? null : per(m.es.totalBulkBytes),
      kafkaBytesPerPush: null,
      freshnessMedianMs: median(fresh),
      meter: m,
    };
    log(
      `  ${k} file(s) a push: indexer ${(row.indexerCpuPerPush * 1000).toFixed(1)} ms CPU, ${row.githubRequestsPerPush.toFixed(1)} GitHub requests, ${row.esDocsPerPush.toFixed(1)} ES docs, freshness median ${row.freshnessMedianMs} ms`,
    );
    rows.push(row);
  }
  return rows;
}
