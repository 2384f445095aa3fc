// A snapshot of every counter a scaling measurement reads before and after: CPU of each role's
// processes, of the engine JVMs, of this process (stand-in and push generator) and of the
// machine; GitHub requests the stand-in served; what Elasticsearch wrote.
import type { GitHubStandIn } from '../../test/github-standin/server';
import { busyShare, groupCpuSeconds, machineCpu, selfCpuSeconds, type MachineCpu } from './cpu';
import { esDelta, esWriteStats, type EsWriteStats } from './es-stats';
import type { Fleet } from './fleet';

export interface MeterContext {
  fleet: Fleet;
  standIn: GitHubStandIn;
  elasticsearchUrl: string;
  indexPrefix: string;
  jvmPids(): { kafka: number[]; elasticsearch: number[] };
}

interface Snapshot {
  at: number;
  cpu: CpuSeconds;
  machine: MachineCpu;
  githubRequests: number;
  routes: Record<string, number>;
  es: EsWriteStats;
}

export interface CpuSeconds {
  indexer: number;
  webhook: number;
  reader: number;
  elasticsearch: number;
  kafka: number;
  /** This process: GitHub stand-in, push generator, fronts, freshness polling, and the git commands it ran. */
  generator: number;
}

export interface MeterReading {
  seconds: number;
  cpu: CpuSeconds;
  /** Share of the machine's CPU (all cores) busy over the interval, 0-1. */
  machineBusy: number;
  githubRequests: number;
  /** Requests by route pattern ("GET /repos/:owner/:repo/compare/*basehead"). */
  routes: Record<string, number>;
  es: EsWriteStats;
}

export async function snapshot(ctx: MeterContext): Promise<Snapshot> {
  const pids = ctx.jvmPids();
  return {
    at: Date.now(),
    cpu: {
      indexer: ctx.fleet.cpuSeconds('indexer'),
      webhook: ctx.fleet.cpuSeconds('webhook'),
      reader: ctx.fleet.cpuSeconds('reader'),
      elasticsearch: pids.elasticsearch.reduce((sum, pid) => sum + groupCpuSeconds(pid), 0),
      kafka: pids.kafka.reduce((sum, pid) => sum + groupCpuSeconds(pid), 0),
      generator: selfCpuSeconds(),
    },
    machine: machineCpu(),
    githubRequests: ctx.standIn.requests.recorded,
    routes: ctx.standIn.requests.counts(),
    es: await esWriteStats(ctx.elasticsearchUrl, ctx.indexPrefix),
  };
}

/** Difference of two snapshots. Route counts need the log not to have been trimmed in between (< 10,000 requests). */
export function reading(before: Snapshot, after: Snapshot): MeterReading {
  const cpu = Object.fromEntries(Object.keys(after.cpu).map((k) => [k, after.cpu[k as keyof CpuSeconds] - before.cpu[k as keyof CpuSeconds]])) as unknown as CpuSeconds;
  const routes: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.routes)) {
    const d = n - (before.routes[route] ?? 0);
    if (d > 0) routes[route] = d;
  }
  return {
    seconds: (after.at - before.at) / 1000,
    cpu,
    machineBusy: busyShare(before.machine, after.machine),
    githubRequests: after.githubRequests - before.githubRequests,
    routes,
    es: esDelta(before.es, after.es),
  };
}
