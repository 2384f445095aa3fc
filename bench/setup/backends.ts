import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { IndexStore } from '@gitdex/ports';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { startGitdex, type GitdexChild } from '../gitdex/child';
import type { Engines } from './engines';

export type BackendName = 'elasticsearch' | 'sqlite';

/**
 * gitdex running on one index engine, fed by the stand-in: where webhooks go, where the
 * reader answers, which process indexes, and the environment that points other gitdex
 * processes (stdio, a reader) at the same index.
 */
export interface Backend {
  name: BackendName;
  webhookUrl: string;
  readerUrl: string;
  /** The process that runs the indexer (its memory is the indexer's). */
  indexer: GitdexChild;
  /** Replaces the indexer process by one with these settings on top (e.g. Elasticsearch through a timing proxy). */
  restartIndexer?(env: Record<string, string>): Promise<void>;
  /** Env for `main.js --stdio` and for `GITDEX_ROLE=reader main.js` on this index. */
  readEnv: Record<string, string>;
  /** The index, opened in the bench process (for profiles of the store calls). */
  openIndex(): IndexStore;
  /** Stops the webhook/indexer processes (reads run without them). */
  stopPipeline(): Promise<void>;
  /** Deletes what this backend created (indices, topic, data folder). */
  close(): Promise<void>;
  describe: string;
}

export interface BackendOptions {
  standInUrl: string;
  secret: string;
  workDir: string;
  runId: string;
  /** Where the indexer process writes a V8 CPU profile (node --cpu-prof), if anywhere. */
  cpuProfileDir?: string;
}

const profiling = (options: BackendOptions) => (options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []);

export async function startElasticsearch(engines: Engines, options: BackendOptions): Promise<Backend> {
  const prefix = `bench${options.runId}`;
  const topic = `gitdex-bench-${options.runId}`;
  const dataDir = join(options.workDir, 'es-data');
  mkdirSync(dataDir, { recursive: true });
  const index = { ELASTICSEARCH_URL: engines.elasticsearchUrl, ELASTICSEARCH_INDEX_PREFIX: prefix, GITDEX_DATA_DIR: dataDir };
  // A topic and consumer group of its own: the engines may be shared with other runs and tests.
  const common = {
    ...index,
    KAFKA_BROKERS: engines.kafkaBrokers,
    KAFKA_TOPIC: topic,
    KAFKA_GROUP_ID: `${topic}-indexer`,
    GITHUB_API_URL: options.standInUrl,
    GITHUB_WEBHOOK_SECRETS: options.secret,
  };
  // The deployment's layout: webhook, indexer and reader as three processes.
  const started: GitdexChild[] = [];
  const stopPipeline = async () => {
    for (const child of [...started].reverse()) await child.stop();
  };
  try {
    for (const role of ['indexer', 'webhook', 'reader']) started.push(await startGitdex({ ...common, GITDEX_ROLE: role }, `elasticsearch ${role}`, role === 'indexer' ? profiling(options) : []));
  } catch (error) {
    await stopPipeline();
    throw error;
  }
  const [indexer, webhook, reader] = started as [GitdexChild, GitdexChild, GitdexChild];
  const backend: Backend = {
    name: 'elasticsearch',
    webhookUrl: `${webhook.url}/webhooks/github`,
    readerUrl: reader.url,
    indexer,
    async restartIndexer(env) {
      await backend.indexer.stop();
      const next = await startGitdex({ ...common, GITDEX_ROLE: 'indexer', ...env }, 'elasticsearch indexer (restarted)', profiling(options));
      started[started.indexOf(backend.indexer)] = next;
      backend.indexer = next;
    },
    readEnv: index,
    openIndex: () => new ElasticsearchIndexStore({ node: engines.elasticsearchUrl, indexPrefix: prefix }),
    stopPipeline,
    describe: `Kafka ${engines.kafkaBrokers} (topic ${topic}) + Elasticsearch ${engines.elasticsearchUrl} (prefix ${prefix}); engines ${engines.provenance}; webhook, indexer and reader as three processes (services/gitdex/dist/main.js, GITDEX_ROLE)`,
    async close() {
      await stopPipeline();
      await fetch(`${engines.elasticsearchUrl}/${prefix}*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
      const admin = new Kafka({ clientId: 'gitdex-bench', brokers: engines.kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => undefined);
      await admin.disconnect();
    },
  };
  return backend;
}

export async function startSqlite(options: BackendOptions): Promise<Backend> {
  const dataDir = join(options.workDir, 'sqlite-data');
  mkdirSync(dataDir, { recursive: true });
  const all = await startGitdex({ GITDEX_ROLE: 'all', GITDEX_DATA_DIR: dataDir, GITHUB_API_URL: options.standInUrl, GITHUB_WEBHOOK_SECRETS: options.secret }, 'sqlite all', profiling(options));
  return {
    name: 'sqlite',
    webhookUrl: `${all.url}/webhooks/github`,
    readerUrl: all.url,
    indexer: all,
    readEnv: { GITDEX_DATA_DIR: dataDir },
    openIndex: () => new SqliteIndexStore({ file: join(dataDir, 'index.sqlite') }),
    stopPipeline: () => all.stop(),
    describe: `embedded: SQLite event log and index in ${dataDir}; one process (GITDEX_ROLE=all, services/gitdex/dist/main.js)`,
    async close() {
      await all.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
