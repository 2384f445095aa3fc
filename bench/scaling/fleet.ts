// One deployment of the product for a scaling run, started as the cluster fault suite starts it
// (test/support: RoleProcess children of the built product, round-robin fronts over several
// webhooks and readers, the role environment of the fault pipeline), with its own Kafka topic and
// consumer group so that each indexer count starts with an empty log and no committed offsets.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CONSUMER_MEMBERS } from '@gitdex/kafka';
import { describeGroup } from '../../test/support/fault-kafka';
import { RoleProcess } from '../../test/support/fault-process';
import { roleEnvironment } from '../../test/support/role-env';
import { startRoundRobin, type RoundRobin } from '../../test/support/round-robin';
import { processCpuSeconds } from './cpu';

export interface FleetOptions {
  label: string;
  root: string;
  logDir: string;
  kafkaBrokers: string;
  elasticsearchUrl: string;
  indexPrefix: string;
  githubApiUrl: string;
  topic: string;
  groupId: string;
  webhooks: number;
  indexers: number;
  readers: number;
}

export type FleetRole = 'webhook' | 'indexer' | 'reader';

export interface IndexerCounters {
  handled: number;
  runs: Record<string, number>;
}

export function countersDelta(before: IndexerCounters, after: IndexerCounters): IndexerCounters {
  const runs: Record<string, number> = {};
  for (const [strategy, n] of Object.entries(after.runs)) if (n - (before.runs[strategy] ?? 0) > 0) runs[strategy] = n - (before.runs[strategy] ?? 0);
  return { handled: after.handled - before.handled, runs };
}

export class Fleet {
  readonly webhooks: RoleProcess[] = [];
  readonly indexers: RoleProcess[] = [];
  readonly readers: RoleProcess[] = [];
  webhookFront!: RoundRobin;
  readerFront!: RoundRobin;

  private constructor(readonly options: FleetOptions) {}

  static async start(options: FleetOptions, log: (line: string) => void): Promise<Fleet> {
    const fleet = new Fleet(options);
    try {
      await fleet.boot(log);
      return fleet;
    } catch (error) {
      await fleet.close();
      throw error;
    }
  }

  private role(role: FleetRole, i: number): RoleProcess {
    const o = this.options;
    const name = `${o.label}-${role}-${i + 1}`;
    const env = roleEnvironment({
      root: o.root,
      name,
      kafkaBrokers: o.kafkaBrokers,
      elasticsearchUrl: o.elasticsearchUrl,
      indexPrefix: o.indexPrefix,
      githubApiUrl: o.githubApiUrl,
      env: {
        KAFKA_TOPIC: o.topic,
        KAFKA_GROUP_ID: o.groupId,
        // Only pushes are measured: no periodic comparison of every ref with GitHub.
        GITDEX_RECONCILE_INTERVAL_SECONDS: '0',
        // The freshness polling is one caller at tens of reads a second: no per-caller limit.
        GITDEX_READER_RATE_LIMIT: '0',
      },
    });
    return new RoleProcess({ name, role, env, logFile: join(o.logDir, `${name}.log`), startTimeoutMs: 180_000 });
  }

  private async boot(log: (line: string) => void): Promise<void> {
    const o = this.options;
    for (let i = 0; i < o.webhooks; i += 1) this.webhooks.push(this.role('webhook', i));
    for (let i = 0; i < o.indexers; i += 1) this.indexers.push(this.role('indexer', i));
    for (let i = 0; i < o.readers; i += 1) this.readers.push(this.role('reader', i));
    const began = Date.now();
    // As the fault pipeline does: the webhook creates the topic, the first indexer the indices; then the rest.
    await Promise.all([this.webhooks[0]!.start(), this.indexers[0]!.start()]);
    await Promise.all([...this.webhooks.slice(1), ...this.readers, ...this.indexers.slice(1)].map((r) => r.start()));
    this.webhookFront = await startRoundRobin(() => this.webhooks.map((w) => w.url));
    this.readerFront = await startRoundRobin(() => this.readers.map((r) => r.url));
    await this.waitGroupStable(120_000);
    log(`${o.label}: ${o.webhooks} webhooks, ${o.indexers} indexers, ${o.readers} readers up after ${((Date.now() - began) / 1000).toFixed(0)} s (topic ${o.topic}, group ${o.groupId})`);
  }

  /** Waits until every member of every indexer joined the group and it is stable, so no rebalance falls into a measurement. */
  private async waitGroupStable(timeoutMs: number): Promise<void> {
    const brokers = this.options.kafkaBrokers.split(',');
    const want = this.options.indexers * DEFAULT_CONSUMER_MEMBERS;
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      const group = await describeGroup(brokers, this.options.groupId);
      if (group) last = `${group.state}, ${group.members} members`;
      if (group && group.state === 'Stable' && group.members >= want) return;
      await sleep(1000);
    }
    throw new Error(`consumer group ${this.options.groupId} not stable with ${want} members within ${timeoutMs / 1000} s (last: ${last})`);
  }

  /** CPU seconds used so far by the processes of one role. */
  cpuSeconds(role: FleetRole): number {
    const list = role === 'webhook' ? this.webhooks : role === 'indexer' ? this.indexers : this.readers;
    return list.reduce((sum, r) => sum + processCpuSeconds(r.pid), 0);
  }

  /**
   * The indexers' own counters, summed over the processes (their /metrics): events handled (after
   * a batch's events of one ref are coalesced to the newest) and index runs by strategy
   * ("unchanged": the ref was already at GitHub's head, an earlier run took this push in).
   */
  async indexerCounters(): Promise<IndexerCounters> {
    const out: IndexerCounters = { handled: 0, runs: {} };
    for (const indexer of this.indexers) {
      const text = await fetch(`${indexer.url}/metrics`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.text())
        .catch(() => '');
      for (const line of text.split('\n')) {
        const handled = /^gitdex_indexer_events_total\{[^}]*\} (\S+)$/.exec(line);
        if (handled) out.handled += Number(handled[1]);
        const runs = /^gitdex_indexer_index_seconds_count\{[^}]*strategy="([^"]*)"[^}]*\} (\S+)$/.exec(line);
        if (runs) out.runs[runs[1]!] = (out.runs[runs[1]!] ?? 0) + Number(runs[2]);
      }
    }
    return out;
  }

  tails(lines = 20): string {
    return [...this.webhooks, ...this.indexers, ...this.readers]
      .filter((r) => r.starts > 0)
      .map((r) => `--- ${r.name} (${r.running ? 'running' : 'not running'}) ---\n${r.output().split('\n').slice(-lines).join('\n')}`)
      .join('\n');
  }

  async close(): Promise<void> {
    await Promise.all([this.webhookFront, this.readerFront].map((front) => front?.close().catch(() => undefined)));
    await Promise.all([...this.webhooks, ...this.readers, ...this.indexers].map((r) => r.stop(15_000).catch(() => undefined)));
  }
}
