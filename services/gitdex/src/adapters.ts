import { join } from 'node:path';
import { elasticsearchSecurity, kafkaSecurity, type DeadLetter, type Env } from '@gitdex/contracts';
import { errorFields, type Log } from '@gitdex/observability';
import type { DeadLetterStore, EventConsumer, EventPublisher, HistoryStore, IndexStore, LeaseStore, PermissionStore, SignInStore, Source } from '@gitdex/ports';
import { createKafka, KafkaConsumer, KafkaDeadLetters, KafkaPublisher } from '@gitdex/kafka';
import { ElasticsearchHistory, ElasticsearchIndexStore, ElasticsearchLeases, ElasticsearchPermissions, ElasticsearchSignInStore } from '@gitdex/elasticsearch';
import { SqliteEventLog, SqliteHistory, SqliteIndexStore, SqliteLeases, SqlitePermissions, SqliteSignInStore } from '@gitdex/sqlite';
import { GitHubSource } from '@gitdex/github';
import { prepareDataDir } from './data-dir';

export interface Adapters {
  index: IndexStore;
  publisher: EventPublisher;
  /** Created lazily: only the indexer role consumes. */
  consumer: () => EventConsumer;
  deadLetters: DeadLetterStore;
  source: Source;
  /** The reconciler's lease, beside the index (one pass at a time across processes). */
  leases: LeaseStore;
  /** Commits and old file versions of indexed refs, beside the index (docs/design/history.md). */
  history: HistoryStore;
  /** Sign-in with GitHub's clients, codes, grants and tokens, beside the index (shared by reader replicas). */
  signIn: SignInStore;
  /** The permission mirror's people and what each may read, beside the index (shared by every replica). */
  permissions: PermissionStore;
  /** Which engines are in use, for logs and /readyz. */
  engines: { eventLog: 'kafka' | 'sqlite'; index: 'elasticsearch' | 'sqlite' };
  close(): Promise<void>;
}

/**
 * Chooses each port's adapter from the configuration: Kafka and Elasticsearch where
 * they are configured, the embedded SQLite adapters in the data folder otherwise.
 */
export function createAdapters(env: Env, hooks: { log: Log; onRateLimit?: (remaining: number, resource: string) => void }): Adapters {
  const { log } = hooks;
  const closers: (() => Promise<void>)[] = [];
  const needsDataDir = !env.KAFKA_BROKERS || !env.ELASTICSEARCH_URL;
  if (needsDataDir) prepareDataDir(env.GITDEX_DATA_DIR, log);

  let index: IndexStore;
  let leases: LeaseStore;
  let history: HistoryStore;
  let signIn: SignInStore;
  let permissions: PermissionStore;
  if (env.ELASTICSEARCH_URL) {
    const store = new ElasticsearchIndexStore({
      node: env.ELASTICSEARCH_URL,
      indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX,
      replicas: env.ELASTICSEARCH_REPLICAS,
      manageTemplates: env.GITDEX_MANAGE_TEMPLATES,
      // Reads answer while an index of the previous layout moves its contents to blobs; the log says how far it is.
      onMigrationProgress: (status) => log.info({ ...status }, status.done ? 'Elasticsearch index: every file content is stored by blob' : 'Elasticsearch index: moving file contents to blobs'),
      ...elasticsearchSecurity(env),
    });
    index = store;
    leases = new ElasticsearchLeases(store.client, { indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX, replicas: env.ELASTICSEARCH_REPLICAS });
    history = new ElasticsearchHistory(store.client, { indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX, replicas: env.ELASTICSEARCH_REPLICAS });
    signIn = new ElasticsearchSignInStore(store.client, { indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX, replicas: env.ELASTICSEARCH_REPLICAS });
    permissions = new ElasticsearchPermissions(store.client, { indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX, replicas: env.ELASTICSEARCH_REPLICAS });
  } else {
    index = new SqliteIndexStore({ file: join(env.GITDEX_DATA_DIR, 'index.sqlite'), log });
    const sqliteLeases = new SqliteLeases({ file: join(env.GITDEX_DATA_DIR, 'index.sqlite') });
    leases = sqliteLeases;
    closers.push(() => Promise.resolve(sqliteLeases.close()));
    const sqliteHistory = new SqliteHistory({ file: join(env.GITDEX_DATA_DIR, 'index.sqlite') });
    history = sqliteHistory;
    closers.push(() => Promise.resolve(sqliteHistory.close()));
    const sqliteSignIn = new SqliteSignInStore({ file: join(env.GITDEX_DATA_DIR, 'sign-in.sqlite') });
    signIn = sqliteSignIn;
    closers.push(() => Promise.resolve(sqliteSignIn.close()));
    const sqlitePermissions = new SqlitePermissions({ file: join(env.GITDEX_DATA_DIR, 'sign-in.sqlite') });
    permissions = sqlitePermissions;
    closers.push(() => Promise.resolve(sqlitePermissions.close()));
  }
  closers.push(() => index.close());

  let publisher: EventPublisher;
  let consumer: () => EventConsumer;
  let deadLetters: DeadLetterStore;
  if (env.KAFKA_BROKERS) {
    const kafka = createKafka({ brokers: env.KAFKA_BROKERS, clientId: env.KAFKA_CLIENT_ID, ...kafkaSecurity(env) });
    const topic = env.KAFKA_TOPIC;
    const replicationFactor = env.KAFKA_REPLICATION_FACTOR;
    publisher = new KafkaPublisher(kafka, { partitions: env.KAFKA_PARTITIONS, topic, replicationFactor });
    const letters = new KafkaDeadLetters(kafka, `${topic}.dlq`, { replicationFactor });
    deadLetters = letters;
    // A message that is not an event can never succeed: it is kept in the dead letters with its reason.
    const onMalformed = (raw: string, error: unknown) => letters.add(malformedLetter(raw, error));
    let made: KafkaConsumer | undefined;
    consumer = () => (made ??= new KafkaConsumer(kafka, { partitions: env.KAFKA_PARTITIONS, topic, groupId: env.KAFKA_GROUP_ID, replicationFactor, log, onMalformed, inFlight: inFlightOf(env) }));
    closers.push(
      () => publisher.close(),
      () => letters.close(),
      async () => made?.stop(),
    );
  } else {
    const eventLog = new SqliteEventLog({ file: join(env.GITDEX_DATA_DIR, 'events.sqlite'), log, concurrency: env.GITDEX_INDEXER_REPOSITORIES_AT_ONCE });
    publisher = eventLog;
    consumer = () => eventLog;
    deadLetters = eventLog.deadLetters();
    closers.push(() => eventLog.close());
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
    leases,
    history,
    signIn,
    permissions,
    engines: { eventLog: env.KAFKA_BROKERS ? 'kafka' : 'sqlite', index: env.ELASTICSEARCH_URL ? 'elasticsearch' : 'sqlite' },
    async close() {
      // Every adapter gets its chance to close; a failure is told, not swallowed.
      for (const close of closers.reverse()) await close().catch((error: unknown) => log.warn(errorFields(error), 'closing an adapter failed'));
    },
  };
}

function malformedLetter(raw: string, error: unknown): DeadLetter {
  return { raw, reason: `not a valid event: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`, attempts: 0, failedAt: new Date().toISOString() };
}

/** The indexer's in-flight bounds (docs/design/in-flight-events.md). */
function inFlightOf(env: Env) {
  return { keys: env.GITDEX_INDEXER_REPOSITORIES_AT_ONCE, events: env.GITDEX_INDEXER_IN_FLIGHT_EVENTS, bytes: env.GITDEX_INDEXER_IN_FLIGHT_BYTES };
}
