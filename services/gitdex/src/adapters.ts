import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '@gitdex/contracts';
import type { DeadLetterStore, EventConsumer, EventPublisher, IndexStore, Source } from '@gitdex/ports';
import { createKafka, KafkaConsumer, KafkaDeadLetters, KafkaPublisher } from '@gitdex/kafka';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { SqliteDeadLetters, SqliteEventLog, SqliteIndexStore } from '@gitdex/sqlite';
import { GitHubSource } from '@gitdex/github';

export interface Adapters {
  index: IndexStore;
  publisher: EventPublisher;
  /** Created lazily: only the indexer role consumes. */
  consumer: () => EventConsumer;
  deadLetters: DeadLetterStore;
  source: Source;
  /** Which engines are in use, for logs and /readyz. */
  engines: { eventLog: 'kafka' | 'sqlite'; index: 'elasticsearch' | 'sqlite' };
  close(): Promise<void>;
}

/**
 * Chooses each port's adapter from the configuration: Kafka and Elasticsearch where
 * they are configured, the embedded SQLite adapters in the data folder otherwise.
 */
export function createAdapters(env: Env, hooks: { onRateLimit?: (remaining: number, resource: string) => void } = {}): Adapters {
  const closers: (() => Promise<void>)[] = [];
  const needsDataDir = !env.KAFKA_BROKERS || !env.ELASTICSEARCH_URL;
  if (needsDataDir) mkdirSync(env.GITDEX_DATA_DIR, { recursive: true });

  let index: IndexStore;
  if (env.ELASTICSEARCH_URL) {
    index = new ElasticsearchIndexStore({ node: env.ELASTICSEARCH_URL, indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX, replicas: env.ELASTICSEARCH_REPLICAS });
  } else {
    index = new SqliteIndexStore({ file: join(env.GITDEX_DATA_DIR, 'index.sqlite') });
  }
  closers.push(() => index.close());

  let publisher: EventPublisher;
  let consumer: () => EventConsumer;
  let deadLetters: DeadLetterStore;
  if (env.KAFKA_BROKERS) {
    const kafka = createKafka({ brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID });
    const topic = env.KAFKA_TOPIC;
    const replicationFactor = env.KAFKA_REPLICATION_FACTOR;
    publisher = new KafkaPublisher(kafka, { partitions: env.KAFKA_PARTITIONS, topic, replicationFactor });
    let made: KafkaConsumer | undefined;
    consumer = () => (made ??= new KafkaConsumer(kafka, { partitions: env.KAFKA_PARTITIONS, topic, groupId: env.KAFKA_GROUP_ID, replicationFactor }));
    const letters = new KafkaDeadLetters(kafka, `${topic}.dlq`, { replicationFactor });
    deadLetters = letters;
    closers.push(() => publisher.close(), () => letters.close(), async () => made?.stop());
  } else {
    const log = new SqliteEventLog({ file: join(env.GITDEX_DATA_DIR, 'events.sqlite') });
    publisher = log;
    consumer = () => log;
    deadLetters = new SqliteDeadLetters(log.database);
    closers.push(() => log.close());
  }

  const source = new GitHubSource({
    baseUrl: env.GITHUB_API_URL,
    ...(hooks.onRateLimit ? { onRateLimit: hooks.onRateLimit } : {}),
    ...(env.GITHUB_TOKEN ? { token: env.GITHUB_TOKEN } : {}),
    ...(env.GITHUB_APP_ID && env.GITHUB_APP_PRIVATE_KEY ? { app: { appId: env.GITHUB_APP_ID, privateKey: env.GITHUB_APP_PRIVATE_KEY.replace(/\\n/g, '\n') } } : {}),
  });

  return {
    index,
    publisher,
    consumer,
    deadLetters,
    source,
    engines: { eventLog: env.KAFKA_BROKERS ? 'kafka' : 'sqlite', index: env.ELASTICSEARCH_URL ? 'elasticsearch' : 'sqlite' },
    async close() {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    },
  };
}
