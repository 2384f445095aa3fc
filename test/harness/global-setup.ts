// jest globalSetup of the "integration" project: provides real Kafka and Elasticsearch before any
// test starts, and exports their endpoints through process.env (the test workers inherit it).
//
// In order:
//   1. KAFKA_BROKERS and ELASTICSEARCH_URL already set: use them as they are.
//   2. A Docker engine answers: start @testcontainers/kafka and @testcontainers/elasticsearch.
//   3. Otherwise: the local JVM engines of scripts/engines (started, or reused if running).
// GITDEX_ENGINES_PROVIDER=local or =testcontainers forces step 3 or step 2.
//
// No engine is never a skip: the setup throws and says why, so the integration tests fail.
// The teardown (global-teardown.ts) stops what this started, unless GITDEX_KEEP_ENGINES=1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadEnginesLib, type EngineName } from './engines';

/** Docker images for the testcontainers path (Kafka 4.x in Confluent's packaging; ES as local). */
export const KAFKA_IMAGE = process.env.GITDEX_KAFKA_IMAGE ?? 'confluentinc/cp-kafka:8.0.0';
export const ELASTICSEARCH_IMAGE = process.env.GITDEX_ELASTICSEARCH_IMAGE ?? 'docker.elastic.co/elasticsearch/elasticsearch:9.5.4';

const DOCKER_PROBE_TIMEOUT_MS = 8_000;

interface StoppableContainer {
  stop(): Promise<unknown>;
}

/** What the setup did, for the teardown (jest shares globalThis between the two). */
export interface EnginesSetupRecord {
  provider: 'env' | 'testcontainers' | 'local';
  containers: StoppableContainer[];
  startedLocal: EngineName[];
}

declare global {
  var __GITDEX_ENGINES__: EnginesSetupRecord | undefined;
}

function say(line: string): void {
  process.stderr.write(`[integration setup] ${line}\n`);
}

function exportEndpoints(provider: EnginesSetupRecord['provider'], kafkaBrokers: string, elasticsearchUrl: string): void {
  process.env.KAFKA_BROKERS = kafkaBrokers;
  process.env.ELASTICSEARCH_URL = elasticsearchUrl;
  process.env.GITDEX_ENGINES_PROVIDER = provider;
  say(`engines (${provider}): KAFKA_BROKERS=${kafkaBrokers} ELASTICSEARCH_URL=${elasticsearchUrl}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Sockets a Docker (or Docker-compatible) engine would listen on when DOCKER_HOST is not set. */
function dockerSocketCandidates(): string[] {
  const home = os.homedir();
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  return [
    '/var/run/docker.sock',
    '/run/docker.sock',
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.docker', 'desktop', 'docker.sock'),
    ...(process.env.XDG_RUNTIME_DIR ? [path.join(process.env.XDG_RUNTIME_DIR, 'docker.sock')] : []),
    ...(uid !== undefined ? [`/run/user/${uid}/docker.sock`, `/run/user/${uid}/podman/podman.sock`] : []),
  ];
}

/** true when a container runtime answers; otherwise false, with the reason added to `reasons`. */
async function dockerAvailable(reasons: string[]): Promise<boolean> {
  if (!process.env.DOCKER_HOST && !dockerSocketCandidates().some((s) => fs.existsSync(s))) {
    reasons.push('Docker: no engine (DOCKER_HOST is not set and there is no docker.sock)');
    return false;
  }
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await withTimeout(getContainerRuntimeClient(), DOCKER_PROBE_TIMEOUT_MS, 'the Docker engine');
    say(`Docker engine found (${client.info.containerRuntime.host})`);
    return true;
  } catch (err) {
    reasons.push(`Docker: ${(err as Error).message}`);
    return false;
  }
}

async function startContainers(): Promise<EnginesSetupRecord> {
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const { ElasticsearchContainer } = await import('@testcontainers/elasticsearch');
  say(`starting containers ${KAFKA_IMAGE} and ${ELASTICSEARCH_IMAGE}`);
  const started: StoppableContainer[] = [];
  try {
    const [kafka, es] = await Promise.all([
      new KafkaContainer(KAFKA_IMAGE)
        .withEnvironment({
          KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
          KAFKA_NUM_PARTITIONS: '6',
          KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
          KAFKA_HEAP_OPTS: '-Xms512m -Xmx512m',
        })
        .start()
        .then((c) => (started.push(c), c)),
      new ElasticsearchContainer(ELASTICSEARCH_IMAGE)
        .withEnvironment({
          'xpack.security.enabled': 'false',
          'cluster.routing.allocation.disk.threshold_enabled': 'false',
          'action.destructive_requires_name': 'false',
          ES_JAVA_OPTS: '-Xms512m -Xmx512m',
        })
        .start()
        .then((c) => (started.push(c), c)),
    ]);
    exportEndpoints('testcontainers', `${kafka.getHost()}:${kafka.getMappedPort(9093)}`, es.getHttpUrl());
    return { provider: 'testcontainers', containers: started, startedLocal: [] };
  } catch (err) {
    await Promise.allSettled(started.map((c) => c.stop()));
    throw err;
  }
}

async function startLocalEngines(): Promise<EnginesSetupRecord> {
  const lib = await loadEnginesLib();
  say(`local JVM engines (scripts/engines, ENGINES_HOME=${lib.enginesHome()})`);
  const result = await lib.up({ log: (line) => process.stderr.write(`[engines] ${line}\n`) });
  if (!result.kafkaBrokers || !result.elasticsearchUrl) throw new Error('scripts/engines up returned no endpoints');
  exportEndpoints('local', result.kafkaBrokers, result.elasticsearchUrl);
  const startedLocal = (Object.keys(result.started) as EngineName[]).filter((name) => result.started[name]);
  return { provider: 'local', containers: [], startedLocal };
}

export default async function globalSetup(): Promise<void> {
  const began = Date.now();
  const { KAFKA_BROKERS: kafkaBrokers, ELASTICSEARCH_URL: elasticsearchUrl } = process.env;
  if (kafkaBrokers && elasticsearchUrl) {
    exportEndpoints('env', kafkaBrokers, elasticsearchUrl);
    globalThis.__GITDEX_ENGINES__ = { provider: 'env', containers: [], startedLocal: [] };
    return;
  }
  if (kafkaBrokers || elasticsearchUrl) {
    throw new Error(
      `integration tests: only one of KAFKA_BROKERS (${kafkaBrokers ?? 'unset'}) and ELASTICSEARCH_URL ` +
        `(${elasticsearchUrl ?? 'unset'}) is set; set both, or neither to let the setup provide the engines`,
    );
  }

  const forced = process.env.GITDEX_ENGINES_PROVIDER;
  if (forced && forced !== 'local' && forced !== 'testcontainers') {
    throw new Error(`GITDEX_ENGINES_PROVIDER=${forced}: expected local or testcontainers`);
  }
  const reasons: string[] = [];

  if (forced !== 'local' && (forced === 'testcontainers' || (await dockerAvailable(reasons)))) {
    try {
      globalThis.__GITDEX_ENGINES__ = await startContainers();
      say(`engines ready in ${((Date.now() - began) / 1000).toFixed(1)}s`);
      return;
    } catch (err) {
      reasons.push(`testcontainers: ${(err as Error).message}`);
      if (forced === 'testcontainers') throw new Error(noEnginesMessage(reasons), { cause: err });
      say(`containers failed (${(err as Error).message}); falling back to the local JVM engines`);
    }
  }

  try {
    globalThis.__GITDEX_ENGINES__ = await startLocalEngines();
    say(`engines ready in ${((Date.now() - began) / 1000).toFixed(1)}s`);
  } catch (err) {
    reasons.push(`local JVM engines (scripts/engines): ${(err as Error).message}`);
    throw new Error(noEnginesMessage(reasons), { cause: err });
  }
}

function noEnginesMessage(reasons: string[]): string {
  return [
    `integration tests need real Kafka and Elasticsearch and none could be had${process.env.CI === 'true' ? ' (CI=true)' : ''}:`,
    ...reasons.map((r) => `  - ${r}`),
    'Provide them with KAFKA_BROKERS + ELASTICSEARCH_URL, a Docker engine, or `npm run engines:up` (see docs/engines.md).',
  ].join('\n');
}
