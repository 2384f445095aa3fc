// The engines the integration tests run on are real: Kafka through kafkajs (the client the
// services use) and Elasticsearch through @elastic/elasticsearch. Also pins down what the
// chosen versions can and cannot do (see docs/engines.md), and that a private set of engines
// can be crashed, stopped and paused for the fault-injection tests.
import { Client, errors } from '@elastic/elasticsearch';
import { Kafka, logLevel, type Admin, type Consumer, type Producer } from 'kafkajs';

import { engineEndpoints, engineProvider, kafkaBrokerList, loadEnginesLib, privateEngines, uniqueName, type PrivateEngines } from '../harness/engines';

jest.setTimeout(120_000);

const kafka = new Kafka({
  clientId: uniqueName('engines-test'),
  brokers: kafkaBrokerList(),
  logLevel: logLevel.NOTHING,
  retry: { retries: 10, initialRetryTime: 200 },
});

let admin: Admin;
const toDisconnect: Array<Producer | Consumer> = [];
const topicsToDelete: string[] = [];

function track<T extends Producer | Consumer>(client: T): T {
  toDisconnect.push(client);
  return client;
}

/** Runs a consumer until `done()` says so (or fails after `ms`). */
async function consumeUntil(consumer: Consumer, run: (finish: () => void) => Parameters<Consumer['run']>[0], ms = 60_000) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  await consumer.run(run(finish));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([finished, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`consumer did not finish in ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

// Each test's clients go before the next test starts: a consumer left running would otherwise
// try to rejoin across the broker restarts below, after jest has torn its environment down.
afterEach(async () => {
  for (const client of toDisconnect.splice(0).reverse()) await client.disconnect().catch(() => undefined);
});

afterAll(async () => {
  if (topicsToDelete.length > 0) await admin.deleteTopics({ topics: topicsToDelete }).catch(() => undefined);
  await admin.disconnect();
});

describe('endpoints', () => {
  it('are exported by the global setup', () => {
    const { kafkaBrokers, elasticsearchUrl } = engineEndpoints();
    expect(kafkaBrokers).toMatch(/^[\w.-]+:\d+(,[\w.-]+:\d+)*$/);
    expect(elasticsearchUrl).toMatch(/^https?:\/\/[\w.-]+:\d+$/);
    expect(['env', 'testcontainers', 'local']).toContain(engineProvider());
  });

  it('local engines report healthy through scripts/engines (typed, imported) in a test worker', async () => {
    const lib = await loadEnginesLib();
    expect(lib.KAFKA_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    if (engineProvider() !== 'local') return; // containers or given endpoints: not ours to inspect
    const status = await lib.status();
    expect(status.kafka).toMatchObject({ running: true, healthy: true, endpoint: engineEndpoints().kafkaBrokers });
    expect(status.elasticsearch).toMatchObject({
      running: true,
      healthy: true,
      endpoint: engineEndpoints().elasticsearchUrl,
    });
  });
});

describe('Kafka', () => {
  it('produces and consumes through a 3-partition topic created by the admin client', async () => {
    const topic = uniqueName('engines-3p');
    topicsToDelete.push(topic);
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    expect(meta?.partitions).toHaveLength(3);

    const producer = track(kafka.producer());
    await producer.connect();
    const sent = Array.from({ length: 30 }, (_, i) => ({ key: `key-${i}`, value: `value-${i}` }));
    await producer.send({ topic, messages: sent });

    const consumer = track(kafka.consumer({ groupId: uniqueName('engines-group') }));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: Array<{ key: string; value: string; partition: number }> = [];
    await consumeUntil(consumer, (finish) => ({
      eachMessage: async ({ message, partition }) => {
        received.push({ key: String(message.key), value: String(message.value), partition });
        if (received.length === sent.length) finish();
      },
    }));
    expect(received.map((m) => m.value).sort()).toEqual(sent.map((m) => m.value).sort());
    expect(new Set(received.map((m) => m.partition)).size).toBeGreaterThan(1); // keys spread over partitions
  });

  it('auto-creates a topic on first produce with the default partition count', async () => {
    const topic = uniqueName('engines-auto');
    topicsToDelete.push(topic);
    const producer = track(kafka.producer({ allowAutoTopicCreation: true }));
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'first' }] });
    const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    // num.partitions=6 on the local broker and the container; endpoints from the env may differ.
    if (engineProvider() === 'env') expect(meta?.partitions.length).toBeGreaterThanOrEqual(1);
    else expect(meta?.partitions).toHaveLength(6);
  });

  it('accepts an idempotent producer and feeds a consumer group with eachBatch, in order per partition', async () => {
    const topic = uniqueName('engines-idem');
    topicsToDelete.push(topic);
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });

    const producer = track(kafka.producer({ idempotent: true, maxInFlightRequests: 1 }));
    await producer.connect();
    const perPartition = 20;
    for (let seq = 0; seq < perPartition; seq++) {
      await producer.send({
        topic,
        acks: -1,
        messages: [0, 1, 2].map((partition) => ({ partition, key: `p${partition}`, value: String(seq) })),
      });
    }

    const groupId = uniqueName('engines-batch');
    const consumer = track(kafka.consumer({ groupId }));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen = new Map<number, number[]>();
    let total = 0;
    await consumeUntil(consumer, (finish) => ({
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        const { batch } = payload;
        for (const message of batch.messages) {
          const list = seen.get(batch.partition) ?? [];
          list.push(Number(String(message.value)));
          seen.set(batch.partition, list);
          payload.resolveOffset(message.offset);
          total++;
        }
        await payload.commitOffsetsIfNecessary();
        await payload.heartbeat();
        if (total === perPartition * 3) finish();
      },
    }));
    const expected = Array.from({ length: perPartition }, (_, i) => i);
    expect([...seen.keys()].sort()).toEqual([0, 1, 2]);
    for (const values of seen.values()) expect(values).toEqual(expected); // once each, in order
    await consumer.stop();

    const committed = await admin.fetchOffsets({ groupId, topics: [topic] });
    const offsets = committed[0]?.partitions.map((p) => Number(p.offset)).sort();
    expect(offsets).toEqual([perPartition, perPartition, perPartition]);
  });

  it('commits a transaction that a read_committed consumer sees', async () => {
    const topic = uniqueName('engines-tx');
    topicsToDelete.push(topic);
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    const producer = track(kafka.producer({ transactionalId: uniqueName('engines-txid'), idempotent: true, maxInFlightRequests: 1 }));
    await producer.connect();
    const aborted = await producer.transaction();
    await aborted.send({ topic, messages: [{ value: 'aborted' }] });
    await aborted.abort();
    const committed = await producer.transaction();
    await committed.send({ topic, messages: [{ value: 'committed' }] });
    await committed.commit();

    const consumer = track(kafka.consumer({ groupId: uniqueName('engines-txg'), readUncommitted: false }));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const values: string[] = [];
    await consumeUntil(consumer, (finish) => ({
      eachMessage: async ({ message }) => {
        values.push(String(message.value));
        if (values.includes('committed')) finish();
      },
    }));
    expect(values).toEqual(['committed']);
  });
});

describe('Elasticsearch', () => {
  const es = new Client({ node: engineEndpoints().elasticsearchUrl });

  afterAll(async () => {
    await es.close();
  });

  it('is a healthy single-node 9.x cluster', async () => {
    const health = await es.cluster.health({ wait_for_status: 'yellow', timeout: '30s' });
    expect(['green', 'yellow']).toContain(health.status);
    expect(health.number_of_nodes).toBe(1);
    const nodes = await es.nodes.info({ node_id: '_local', metric: ['settings'] });
    const versions = Object.values(nodes.nodes).map((n) => n.version);
    expect(versions[0]).toMatch(/^9\./);
  });

  it('indexes a document and finds it again', async () => {
    const index = uniqueName('engines-doc');
    try {
      await es.index({ index, id: 'a', document: { repo: 'octo/hello', content: 'the quick brown fox' }, refresh: true });
      expect((await es.get<{ repo: string }>({ index, id: 'a' }))._source?.repo).toBe('octo/hello');
      const found = await es.search<{ repo: string }>({ index, query: { match: { content: 'fox' } } });
      expect(found.hits.hits.map((h) => h._id)).toEqual(['a']);
    } finally {
      await es.indices.delete({ index, ignore_unavailable: true });
    }
  });

  it('applies an index template with keyword, text, numeric and date fields and a lowercase normalizer', async () => {
    // Only core mapping types and analysis: the integ-test-zip has no analysis-common or
    // mapper-extras, so no search_as_you_type, wildcard, or stemmers.
    const prefix = uniqueName('engines-tpl');
    const template = `${prefix}-template`;
    const index = `${prefix}-000001`;
    try {
      await es.indices.putIndexTemplate({
        name: template,
        index_patterns: [`${prefix}-*`],
        template: {
          settings: {
            number_of_shards: 1,
            number_of_replicas: 0,
            analysis: { normalizer: { lower: { type: 'custom', filter: ['lowercase'] } } },
          },
          mappings: {
            dynamic: 'strict',
            properties: {
              repo: { type: 'keyword' },
              path: { type: 'keyword' },
              language: { type: 'keyword', normalizer: 'lower' },
              content: { type: 'text' },
              size: { type: 'long' },
              indexed_at: { type: 'date' },
            },
          },
        },
      });
      await es.bulk({
        refresh: true,
        operations: [
          { index: { _index: index, _id: '1' } },
          { repo: 'octo/a', path: 'src/Main.ts', language: 'TypeScript', content: 'export function main()', size: 22, indexed_at: '2024-01-01T00:00:00Z' },
          { index: { _index: index, _id: '2' } },
          { repo: 'octo/a', path: 'README.md', language: 'Markdown', content: 'Main readme', size: 11, indexed_at: '2024-01-02T00:00:00Z' },
          { index: { _index: index, _id: '3' } },
          { repo: 'octo/b', path: 'src/util.ts', language: 'typescript', content: 'export const util', size: 17, indexed_at: '2024-01-03T00:00:00Z' },
        ],
      });
      const mapping = await es.indices.getMapping({ index });
      expect(mapping[index]?.mappings.properties?.repo).toEqual({ type: 'keyword' });

      const byRepo = await es.search({ index, query: { term: { repo: 'octo/a' } }, sort: [{ path: 'asc' }] });
      expect(byRepo.hits.hits.map((h) => h._id)).toEqual(['2', '1']);
      const byPrefix = await es.search({ index, query: { prefix: { path: 'src/' } } });
      expect(byPrefix.hits.hits.map((h) => h._id).sort()).toEqual(['1', '3']);
      const byLanguage = await es.search({ index, query: { term: { language: 'TYPESCRIPT' } } });
      expect(byLanguage.hits.hits.map((h) => h._id).sort()).toEqual(['1', '3']);
      const text = await es.search({ index, query: { match: { content: 'main' } } });
      expect(text.hits.hits.map((h) => h._id).sort()).toEqual(['1', '2']);
      const aggs = await es.search({
        index,
        size: 0,
        aggs: { repos: { terms: { field: 'repo' } }, bytes: { sum: { field: 'size' } } },
      });
      expect((aggs.aggregations?.repos as { buckets: Array<{ key: string; doc_count: number }> }).buckets).toEqual([
        { key: 'octo/a', doc_count: 2 },
        { key: 'octo/b', doc_count: 1 },
      ]);
      expect((aggs.aggregations?.bytes as { value: number }).value).toBe(50);

      // dynamic: strict is enforced
      await expect(es.index({ index, document: { repo: 'x', unknown: 1 } })).rejects.toBeInstanceOf(errors.ResponseError);
    } finally {
      await es.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true, allow_no_indices: true });
      await es.indices.deleteIndexTemplate({ name: template }).catch(() => undefined);
    }
  });
});

// Fault injection runs on a private set of engines (own ports, data and JVMs), so the other test
// files that use the shared engines at the same time are not disturbed.
describe('a private set of engines for fault injection', () => {
  let engines: PrivateEngines;
  let privateKafka: Kafka;

  beforeAll(async () => {
    engines = await privateEngines(['kafka', 'elasticsearch'], 'engines-test');
    privateKafka = new Kafka({
      clientId: uniqueName('engines-private'),
      brokers: [engines.kafkaBrokers],
      logLevel: logLevel.NOTHING,
      retry: { retries: 10, initialRetryTime: 200 },
    });
  }, 180_000);

  afterAll(async () => {
    await engines?.close();
  }, 60_000);

  it('runs apart from the shared engines', () => {
    expect(engines.kafkaBrokers).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(engines.kafkaBrokers).not.toBe(engineEndpoints().kafkaBrokers);
    expect(engines.elasticsearchUrl).not.toBe(engineEndpoints().elasticsearchUrl);
  });

  it('Kafka: a crashed and restarted broker keeps its topics and messages, and clients carry on', async () => {
    const topic = uniqueName('engines-restart');
    const privateAdmin = privateKafka.admin();
    await privateAdmin.connect();
    await privateAdmin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await privateAdmin.disconnect();
    const producer = track(privateKafka.producer({ idempotent: true, maxInFlightRequests: 1 }));
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'before' }] });

    await engines.restart('kafka', { force: true }); // SIGKILL, then start on the same port with the same data
    await producer.send({ topic, messages: [{ value: 'after' }] });

    const consumer = track(privateKafka.consumer({ groupId: uniqueName('engines-restart-g') }));
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const values: string[] = [];
    await consumeUntil(consumer, (finish) => ({
      eachMessage: async ({ message }) => {
        values.push(String(message.value));
        if (values.length === 2) finish();
      },
    }));
    expect(values).toEqual(['before', 'after']);
  });

  it('Elasticsearch: unavailable while down, then back with its indices', async () => {
    const es = new Client({ node: engines.elasticsearchUrl, maxRetries: 0, requestTimeout: 60_000 }); // a loaded 2-core machine takes > 5 s to create an index; "down" is refused at once anyway
    const index = uniqueName('engines-stop');
    try {
      await es.index({ index, id: '1', document: { n: 1 }, refresh: true });
      const whileDown = await engines.withDown('elasticsearch', 3_000, () => es.count({ index }).catch((e: unknown) => e));
      expect(whileDown).toBeInstanceOf(errors.ConnectionError);
      await es.cluster.health({ index, wait_for_status: 'yellow', timeout: '30s' });
      expect((await es.count({ index })).count).toBe(1);
    } finally {
      await es.close();
    }
  });

  it('a paused engine keeps its port open but does not answer until resumed', async () => {
    const es = new Client({ node: engines.elasticsearchUrl, maxRetries: 0, requestTimeout: 1_000 });
    try {
      await engines.pause('elasticsearch');
      await expect(es.cluster.health()).rejects.toBeInstanceOf(errors.TimeoutError);
      await engines.resume('elasticsearch');
      expect(['green', 'yellow']).toContain((await es.cluster.health()).status);
    } finally {
      await es.close();
    }
  });
});
