// Faults of the product's own processes under a stream of pushes: an indexer SIGKILLed in the
// middle of a batch, a second indexer joining the consumer group and the first one leaving
// (rebalances mid-stream), the webhook service restarted (SIGTERM and SIGKILL). The product runs
// as child processes on a PRIVATE set of engines of this file.
import { setTimeout as sleep } from 'node:timers/promises';
import { privateEngines, type PrivateEngines } from '../harness/engines';
import { DEFAULT_CONSUMER_MEMBERS } from '@gitdex/kafka';
import { observeGroup, waitGroupStable } from '../support/fault-kafka';
import { measureFault } from '../support/fault-measure';
import { FaultPipeline, MAIN } from '../support/fault-pipeline';
import { FaultResults } from '../support/fault-results';

const results = new FaultResults('process-faults');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** The product's consumer group (fixed name: libs/kafka/src/consumer.ts). */
const INDEXER_GROUP = 'gitdex-indexer';

describe('faults of the gitdex processes while pushes flow', () => {
  let engines: PrivateEngines;
  let p: FaultPipeline;

  beforeAll(async () => {
    engines = await privateEngines(['kafka', 'elasticsearch'], 'faults-process');
    p = await FaultPipeline.start({ label: 'process-faults', kafkaBrokers: engines.kafkaBrokers, elasticsearchUrl: engines.elasticsearchUrl });
  }, 240_000);
  afterAll(async () => {
    results.print();
    await p?.close();
    await engines?.close();
  }, 120_000);

  it('an indexer SIGKILLed mid-batch and restarted: the batch is consumed again, nothing is lost', async () => {
    let inFlight = 0;
    let pending = 0;
    await measureFault(p, results, {
      fault: 'indexer SIGKILL mid-batch + restart',
      inject: async ({ injected, ended, note }) => {
        const indexer = p.indexer(0);
        // GitHub answers slowly, so a batch takes seconds: kill while a GitHub request of it is in flight.
        p.standIn.requests.reset();
        const slow = p.standIn.faults.add({ type: 'latency', ms: 400 });
        const hits = () => p.standIn.faults.list().find((f) => f.id === slow.id)?.hits ?? 0;
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline && !(hits() >= 4 && hits() > p.standIn.requests.total)) await sleep(20);
        inFlight = hits() - p.standIn.requests.total;
        injected();
        await indexer.kill('SIGKILL');
        const group = observeGroup(p.brokers, INDEXER_GROUP);
        // Events the killed indexer had taken (marked pending) but not finished.
        for (const repo of p.repos) {
          const state = await p.index.getRefState(repo.id, MAIN);
          if (state?.pendingCommitSha && state.pendingCommitSha !== state.commitSha) pending += 1;
        }
        note(`killed with ${inFlight} GitHub request(s) in flight and ${pending} repositories pending`);
        await sleep(3000);
        p.standIn.faults.remove(slow.id);
        ended();
        const began = Date.now();
        await indexer.start();
        note(`restarted indexer joined the group in ${seconds(Date.now() - began)} (group ${(await group.stop()).join(' -> ')})`);
      },
    });
    expect(inFlight).toBeGreaterThan(0);
    expect(pending).toBeGreaterThan(0);
  }, 300_000);

  it('a second indexer joins mid-stream and the first one leaves: partitions move over, nothing is lost', async () => {
    const second = p.indexer(1);
    let secondMark = 0;
    await measureFault(p, results, {
      fault: 'rebalance: 2nd indexer joins, 1st leaves',
      injections: 2,
      inject: async ({ note, noteLater }) => {
        const group = observeGroup(p.brokers, INDEXER_GROUP);
        const began = Date.now();
        await second.start();
        secondMark = second.mark();
        note(`indexer-2 joined in ${seconds(Date.now() - began)}`);
        await sleep(5000);
        const exit = await p.indexer(0).stop();
        note(`indexer-1 left (SIGTERM) in ${seconds(exit.ms)}, exit code ${exit.code}`);
        // The group settles on the members of the indexer left (once it finished its batch) while the index catches up.
        const left = Date.now();
        noteLater(
          waitGroupStable(p.brokers, INDEXER_GROUP, DEFAULT_CONSUMER_MEMBERS, 60_000).then(
            async ({ ms }) => `group ${(await group.stop()).join(' -> ')}, Stable/${DEFAULT_CONSUMER_MEMBERS} ${ms === null ? 'NOT reached' : `${seconds(Date.now() - left)} after indexer-1 left`}`,
          ),
        );
        expect(exit.code).toBe(0);
      },
    });
    // indexer-2 took over: it handled events after the rebalance.
    expect(second.outputSince(secondMark)).toMatch(/event handled/);
  }, 300_000);

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`the webhook service restarted (${signal}): deliveries refused meanwhile are redelivered, nothing acknowledged is lost`, async () => {
      let refusedWhileDown = 0;
      await measureFault(p, results, {
        fault: `webhook restart (${signal})`,
        inject: async ({ stream, injected, ended, note }) => {
          injected();
          const exit = await p.webhook.kill(signal);
          const downAt = Date.now();
          note(`webhook exited in ${seconds(exit.ms)} (code ${exit.code}, signal ${exit.signal})`);
          // Down at least 3 s, and until the stream has tried (and failed) a delivery: on a busy
          // machine every repository can still be busy for a while, so no push is due at once.
          const refused = () => stream.deliveries.filter((d) => d.at >= downAt && d.status === null).length;
          await sleep(3000);
          for (let waited = 3000; refused() === 0 && waited < 30_000; waited += 250) await sleep(250);
          refusedWhileDown = refused();
          ended();
          const began = Date.now();
          await p.webhook.start();
          note(`back in ${seconds(Date.now() - began)}`);
        },
      });
      expect(refusedWhileDown).toBeGreaterThan(0);
    }, 300_000);
  }
});
