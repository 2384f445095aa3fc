// Scale-out proven on real clusters: two webhook, three indexer and two reader processes on a
// three-broker Kafka (KRaft quorum of three) and a three-node Elasticsearch, under a push stream,
// while brokers, data nodes and service processes die. Each fault is checked against git as the
// fault suite does: every acknowledged delivery indexed, the index equal to `git ls-tree` at each
// head, no dead letters. The table goes to test-artifacts/cluster/results.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { EVENTS_TOPIC } from '@gitdex/contracts';
import { privateCluster, type PrivateCluster } from '../harness/cluster';
import { measureFault, type FaultContext } from '../support/fault-measure';
import { FaultPipeline } from '../support/fault-pipeline';
import { FaultResults, type FaultResult } from '../support/fault-results';
import { startReadLoad, type ReadLoadReport } from '../support/read-load';

const OUT_DIR = join(__dirname, '../../test-artifacts/cluster');
const results = new FaultResults('cluster-faults');
const table: { row: FaultResult; reads: ReadLoadReport }[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const began = Date.now();
let memory = '';

function admin(p: FaultPipeline) {
  return new Kafka({ clientId: 'cluster-test', brokers: p.brokers, logLevel: logLevel.NOTHING, retry: { retries: 8, initialRetryTime: 300, maxRetryTime: 3000 } }).admin();
}

/** Partition leaders of the event topic, by broker id. */
async function leadersByBroker(p: FaultPipeline): Promise<Map<number, number>> {
  const a = admin(p);
  await a.connect();
  try {
    const { topics } = await a.fetchTopicMetadata({ topics: [EVENTS_TOPIC] });
    const counts = new Map<number, number>();
    for (const partition of topics[0]?.partitions ?? []) counts.set(partition.leader, (counts.get(partition.leader) ?? 0) + 1);
    return counts;
  } finally {
    await a.disconnect();
  }
}

interface ShardRow {
  index: string;
  shard: string;
  prirep: 'p' | 'r';
  state: string;
  node: string | null;
}

/** The shards of the pipeline's indices, asked of the first node that answers (one may be down). */
async function shards(p: FaultPipeline): Promise<ShardRow[]> {
  let last: unknown;
  for (const node of p.options.elasticsearchUrl.split(',')) {
    try {
      const answer = await fetch(`${node}/_cat/shards/${p.prefix}-*?format=json&h=index,shard,prirep,state,node`, { signal: AbortSignal.timeout(10_000) });
      if (answer.status === 200) return (await answer.json()) as ShardRow[];
      last = new Error(`${node} answered ${answer.status}`);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

function busiest(counts: Map<string | number, number>): [string | number, number] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
}

/** Runs a fault with reads flowing through the readers' front from the injection to the fault's end. */
async function faultWithReads(p: FaultPipeline, fault: string, inject: (ctx: FaultContext) => Promise<void>, injections = 1): Promise<void> {
  let reads: ReadLoadReport = { reads: 0, failed: 0, failedForMs: 0, slowestOkMs: 0, samples: [] };
  const row = await measureFault(p, results, {
    fault,
    injections,
    recoveryTimeoutMs: 180_000,
    inject: async (ctx) => {
      const load = startReadLoad(
        p.readerFront!.url,
        p.repos.map((r) => r.fullName),
      );
      const retriedBefore = p.readerFront!.retried;
      try {
        await inject(ctx);
      } finally {
        reads = await load.stop();
        const retried = p.readerFront!.retried - retriedBefore;
        ctx.note(
          `reads: ${reads.reads}, failed ${reads.failed}${reads.failed ? ` over ${seconds(reads.failedForMs)} (${reads.samples.join(' | ')})` : ''}, slowest ok ${reads.slowestOkMs} ms${retried ? `, ${retried} sent again by the front after a connection reset` : ''}`,
        );
      }
    },
  }).finally(() => undefined);
  table.push({ row, reads });
}

function writeTable(): void {
  const header = '| fault | deliveries | acknowledged | refused | lost | dead letters | reads | failed reads (window) | fault s | recovery s |';
  const lines = table.map(
    ({ row, reads }) =>
      `| ${row.fault} | ${row.deliveries} | ${row.acknowledged} | ${row.refused} | ${row.lost} | ${row.deadLettered} | ${reads.reads} | ${reads.failed}${reads.failed ? ` (${seconds(reads.failedForMs)})` : ''} | ${row.faultSeconds.toFixed(1)} | ${row.recoverySeconds === null ? 'NOT RECOVERED' : row.recoverySeconds.toFixed(1)} |`,
  );
  const text = [header, '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|', ...lines, '', `suite runtime: ${seconds(Date.now() - began)}`, memory, ''].join('\n');
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'results.md'), text);
  writeFileSync(join(OUT_DIR, 'results.json'), `${JSON.stringify(table, null, 2)}\n`);
  process.stdout.write(`\nCluster fault results:\n${text}\n`);
}

describe('scale-out on a three-broker Kafka and a three-node Elasticsearch', () => {
  let cluster: PrivateCluster;
  let p: FaultPipeline;

  beforeAll(async () => {
    cluster = await privateCluster('cluster-faults');
    p = await FaultPipeline.start({
      label: 'cluster-faults',
      kafkaBrokers: cluster.kafkaBrokers,
      elasticsearchUrl: cluster.elasticsearchUrl,
      webhooks: 2,
      indexers: 3,
      readers: 2,
      repositories: 4,
      pushIntervalMs: 600,
    });
  }, 900_000);

  afterAll(async () => {
    if (cluster) {
      const nodes = cluster.status();
      memory = `cluster memory (RSS): ${nodes.map((n) => `${n.name} ${n.rssMb} MB`).join(', ')}; total ${nodes.reduce((sum, n) => sum + n.rssMb, 0)} MB`;
    }
    writeTable();
    results.print();
    await p?.close();
    await cluster?.close();
  }, 180_000);

  it('runs in the production shape: the topic on three replicas with min ISR 2, every shard with a replica, work spread over the processes', async () => {
    const a = admin(p);
    await a.connect();
    try {
      const { topics } = await a.fetchTopicMetadata({ topics: [EVENTS_TOPIC] });
      const partitions = topics[0]!.partitions;
      expect(partitions.length).toBeGreaterThan(0);
      expect(new Set(partitions.map((x) => x.replicas.length))).toEqual(new Set([3]));
      const configs = await a.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: EVENTS_TOPIC, configNames: ['min.insync.replicas'] }] });
      expect(configs.resources[0]!.configEntries.find((c) => c.configName === 'min.insync.replicas')?.configValue).toBe('2');
      // Leaders are spread over the brokers.
      expect((await leadersByBroker(p)).size).toBe(3);
    } finally {
      await a.disconnect();
    }
    const rows = await shards(p);
    for (const index of new Set(rows.map((r) => r.index))) {
      const copies = rows.filter((r) => r.index === index && r.state === 'STARTED');
      expect(copies.map((c) => c.prirep).sort()).toEqual(['p', 'r']);
      expect(new Set(copies.map((c) => c.node)).size).toBe(2);
    }
    // Deliveries reached both webhooks, reads both readers (the first index went through the fronts).
    expect([...p.webhookFront!.served.values()].filter((n) => n > 0).length).toBe(2);
    // Four reads in a row through the front: round robin gives each reader two.
    const before = new Map(p.readerFront!.served);
    for (const repo of p.repos) {
      const answer = await fetch(`${p.readerFront!.url}/v1/repositories/${repo.fullName}/files/README.md`);
      expect(answer.status).toBe(200);
    }
    expect(p.readers.map((r) => (p.readerFront!.served.get(r.url) ?? 0) - (before.get(r.url) ?? 0)).every((n) => n > 0)).toBe(true);
  }, 120_000);

  it('Kafka: the broker leading the most event partitions is SIGKILLed, then restarted: nothing acknowledged is lost', async () => {
    await faultWithReads(p, 'Kafka partition leader SIGKILL + restart', async ({ note }) => {
      const [leader, count] = busiest(await leadersByBroker(p)) as [number, number];
      note(`broker ${leader} led ${count} partitions`);
      await cluster.stop('kafka', leader, { force: true });
      await sleep(10_000);
      note(`after 10 s the leaders are ${JSON.stringify(Object.fromEntries(await leadersByBroker(p)))}`);
      const back = Date.now();
      await cluster.start('kafka', leader);
      note(`broker ${leader} rejoined after ${seconds(Date.now() - back)}`);
    });
  }, 600_000);

  it('Kafka: rolling restart of all three brokers, one by one: nothing acknowledged is lost', async () => {
    await faultWithReads(
      p,
      'Kafka rolling restart of 3 brokers',
      async ({ note }) => {
        for (const broker of [1, 2, 3]) {
          const t = Date.now();
          await cluster.stop('kafka', broker);
          await cluster.start('kafka', broker);
          note(`broker ${broker} restarted in ${seconds(Date.now() - t)}`);
        }
      },
      3,
    );
  }, 900_000);

  it('Elasticsearch: the data node holding the most primaries is SIGKILLed; reads keep answering, writes resume, it rejoins', async () => {
    await faultWithReads(p, 'Elasticsearch data node SIGKILL + restart', async ({ note }) => {
      const primaries = new Map<string, number>();
      for (const row of await shards(p)) if (row.prirep === 'p' && row.node) primaries.set(row.node, (primaries.get(row.node) ?? 0) + 1);
      const [name, count] = busiest(primaries) as [string, number];
      note(`${name} held ${count} primaries`);
      const node = Number(/es-(\d+)/.exec(name)?.[1]);
      await cluster.stop('elasticsearch', node, { force: true });
      await sleep(15_000);
      const after = await shards(p);
      const started = after.filter((r) => r.prirep === 'p' && r.state === 'STARTED');
      note(`15 s later: ${started.length} of ${new Set(after.map((r) => `${r.index}/${r.shard}`)).size} primaries started, on ${[...new Set(started.map((r) => r.node))].join(', ')}`);
      // The replicas on the other nodes were promoted: no primary is left on the dead node.
      expect(started.map((r) => r.node)).not.toContain(name);
      const back = Date.now();
      await cluster.start('elasticsearch', node);
      note(`${name} rejoined after ${seconds(Date.now() - back)}`);
    });
  }, 600_000);

  it('one indexer of three SIGKILLed, restarted after 10 s: the other two take its partitions', async () => {
    await faultWithReads(p, 'indexer 1 of 3 SIGKILL + restart', async ({ note, ended }) => {
      await p.indexers[1]!.kill('SIGKILL');
      await sleep(10_000);
      ended();
      const t = Date.now();
      await p.indexers[1]!.start();
      note(`indexer-2 listening again after ${seconds(Date.now() - t)}`);
    });
  }, 600_000);

  it('one reader of two SIGKILLed, restarted after 10 s: reads keep answering through the other', async () => {
    await faultWithReads(p, 'reader 1 of 2 SIGKILL + restart', async ({ note }) => {
      await p.readers[1]!.kill('SIGKILL');
      await sleep(10_000);
      const t = Date.now();
      await p.readers[1]!.start();
      note(`reader-2 listening again after ${seconds(Date.now() - t)}`);
    });
    expect(table[table.length - 1]!.reads.failed).toBe(0);
  }, 600_000);
});
