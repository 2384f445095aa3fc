// Faults of GitHub under a stream of pushes: a storm of 5xx answers, and secondary rate limiting
// (403 + retry-after). The product runs as child processes; Kafka is private to this file (the
// product's topic and consumer group names are fixed, so a shared broker could mix runs), while
// Elasticsearch is the shared one (indices under a prefix of this run, dropped at the end).
import { setTimeout as sleep } from 'node:timers/promises';
import { engineEndpoints, privateEngines, type PrivateEngines } from '../harness/engines';
import { measureFault } from '../support/fault-measure';
import { FaultPipeline } from '../support/fault-pipeline';
import { FaultResults } from '../support/fault-results';

const results = new FaultResults('github-faults');

describe('faults of GitHub while pushes flow', () => {
  let engines: PrivateEngines;
  let p: FaultPipeline;

  beforeAll(async () => {
    engines = await privateEngines(['kafka'], 'faults-github');
    p = await FaultPipeline.start({
      label: 'github-faults',
      kafkaBrokers: engines.kafkaBrokers,
      elasticsearchUrl: engineEndpoints().elasticsearchUrl,
      dropIndicesOnClose: true,
    });
  }, 240_000);
  afterAll(async () => {
    results.print();
    await p?.close();
    await engines?.close();
  }, 120_000);

  it('a 15 s storm of GitHub 5xx answers: events are retried, not lost, and the index converges after', async () => {
    await measureFault(p, results, {
      fault: 'GitHub 5xx storm 15 s',
      inject: async ({ note }) => {
        let failed = 0;
        for (const status of [502, 500, 503]) {
          const storm = p.standIn.faults.add({ type: '5xx', status, count: 1_000_000 });
          await sleep(5000);
          failed += p.standIn.faults.list().find((f) => f.id === storm.id)?.hits ?? 0;
          p.standIn.faults.remove(storm.id);
        }
        note(`${failed} GitHub requests answered 5xx`);
        expect(failed).toBeGreaterThan(0);
      },
    });
  }, 300_000);

  it('GitHub secondary rate limiting for 12 s (403 + retry-after 3): waits as asked, nothing is lost', async () => {
    await measureFault(p, results, {
      fault: 'GitHub secondary rate limit 12 s',
      inject: async ({ note }) => {
        const limit = p.standIn.faults.add({ type: 'rate_limit', kind: 'secondary', status: 403, retryAfter: 3, count: 1_000_000 });
        await sleep(12_000);
        const hits = p.standIn.faults.list().find((f) => f.id === limit.id)?.hits ?? 0;
        p.standIn.faults.remove(limit.id);
        note(`${hits} GitHub requests answered 403 secondary rate limit`);
        expect(hits).toBeGreaterThan(0);
      },
    });
  }, 300_000);
});
