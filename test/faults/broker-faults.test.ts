// Faults of the engines under a stream of pushes: the Kafka broker restarted (clean and SIGKILL),
// Elasticsearch down for 30 s and restarted, Elasticsearch hung (SIGSTOP). The product runs as
// child processes (webhook, indexer, reader) on a PRIVATE set of engines of this file.
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CONSUMER_MEMBERS } from '@gitdex/kafka';
import { privateEngines, type PrivateEngines } from '../harness/engines';
import { observeGroup } from '../support/fault-kafka';
import { measureFault } from '../support/fault-measure';
import { FaultPipeline } from '../support/fault-pipeline';
import { describeProbe, expectIndexUnavailable, probeReader, type ReaderProbe } from '../support/fault-reader';
import { FaultResults } from '../support/fault-results';

/** The product's consumer group (fixed name: libs/kafka/src/consumer.ts). */
const INDEXER_GROUP = 'gitdex-indexer';

const results = new FaultResults('broker-faults');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * What the indexers' consumer group goes through after the broker is back: the states seen until
 * it rebalanced and is Stable with all its members again (an indexer joins as DEFAULT_CONSUMER_MEMBERS
 * members, so Stable/1 never comes), or 60 s passed, and when it got there.
 */
async function groupRecovery(p: FaultPipeline): Promise<string> {
  const back = Date.now();
  const group = observeGroup(p.brokers, INDEXER_GROUP);
  const stable = `Stable/${DEFAULT_CONSUMER_MEMBERS}`;
  let settled: number | null = null;
  while (Date.now() - back < 60_000) {
    const changes = group.changes();
    const last = changes[changes.length - 1];
    if (changes.length > 1 && last?.label === stable) {
      settled = last.at;
      break;
    }
    await sleep(500);
  }
  const states = await group.stop();
  return `consumer group ${INDEXER_GROUP}: ${states.join(' -> ')}${settled === null ? ' (no rebalance seen in 60 s)' : `, ${stable} again ${seconds(settled - back)} after the broker was back`}`;
}

describe('faults of the engines while pushes flow', () => {
  let engines: PrivateEngines;
  let p: FaultPipeline;

  beforeAll(async () => {
    engines = await privateEngines(['kafka', 'elasticsearch'], 'faults-broker');
    p = await FaultPipeline.start({ label: 'broker-faults', kafkaBrokers: engines.kafkaBrokers, elasticsearchUrl: engines.elasticsearchUrl });
  }, 240_000);
  afterAll(async () => {
    results.print();
    await p?.close();
    await engines?.close();
  }, 120_000);

  it('Kafka broker restarted cleanly: nothing acknowledged is lost, the index catches up', async () => {
    await measureFault(p, results, {
      fault: 'Kafka broker restart (clean)',
      inject: async ({ note, noteLater }) => {
        const began = Date.now();
        await engines.restart('kafka');
        note(`broker back after ${seconds(Date.now() - began)}`);
        noteLater(groupRecovery(p));
      },
    });
  }, 300_000);

  it('Kafka broker crashed (SIGKILL) and restarted: nothing acknowledged is lost, the index catches up', async () => {
    await measureFault(p, results, {
      fault: 'Kafka broker restart (SIGKILL)',
      inject: async ({ note, noteLater }) => {
        const began = Date.now();
        await engines.restart('kafka', { force: true });
        note(`broker back after ${seconds(Date.now() - began)}`);
        noteLater(groupRecovery(p));
      },
    });
  }, 300_000);

  it('Elasticsearch down for 30 s, then restarted: the reader says "index unavailable" at once, the indexer waits and catches up', async () => {
    const probes: ReaderProbe[] = [];
    await measureFault(p, results, {
      fault: 'Elasticsearch down 30 s + restart',
      inject: async ({ note }) => {
        await engines.withDown('elasticsearch', 30_000, async () => {
          await sleep(2000);
          probes.push(await probeReader(p.reader.url, p.repos[0]!.fullName));
          await sleep(15_000);
          probes.push(await probeReader(p.reader.url, p.repos[1]!.fullName));
        });
        note(`reader while down: ${probes.map(describeProbe).join(' / ')}`);
      },
    });
    for (const probe of probes) expectIndexUnavailable(probe);
  }, 300_000);

  it('Elasticsearch hung (SIGSTOP) for 12 s: the reader answers "index unavailable" within its deadline, the indexer catches up', async () => {
    const probes: ReaderProbe[] = [];
    await measureFault(p, results, {
      fault: 'Elasticsearch hung (SIGSTOP) 12 s',
      inject: async ({ note }) => {
        await engines.pause('elasticsearch');
        try {
          const began = Date.now();
          probes.push(await probeReader(p.reader.url, p.repos[2]!.fullName));
          const left = 12_000 - (Date.now() - began);
          if (left > 0) await sleep(left);
        } finally {
          await engines.resume('elasticsearch');
        }
        note(`reader while hung: ${probes.map(describeProbe).join(' / ')}`);
      },
    });
    for (const probe of probes) expectIndexUnavailable(probe);
  }, 300_000);
});
