// What every engines command needs to know, as one explicit value: the CLI builds it from the
// environment (the only place that reads it), the test harness from its own choices.
import path from 'node:path';
import type { ClusterOptions } from './cluster.ts';
import type { JavaChoice } from './jdk.ts';
import { stderrLog, type Log } from './util.ts';

/** Apache Kafka broker (org.apache.kafka:kafka_2.13). Verified with kafkajs 2.2.4, see docs/engines.md. */
export const KAFKA_VERSION = '4.4.0';
/** Elasticsearch integ-test-zip distribution. */
export const ELASTICSEARCH_VERSION = '9.5.4';

/** The shared single-node engines' ports. */
export interface SinglePorts {
  kafka: number;
  kafkaController: number;
  elasticsearch: number;
  elasticsearchTransport: number;
}

export const SINGLE_PORTS: SinglePorts = { kafka: 19092, kafkaController: 19093, elasticsearch: 19200, elasticsearchTransport: 19300 };

/** The cluster's first ports: clear of the single-node engines (19092/19093, 19200/19300). */
export const CLUSTER_BASE_PORTS = { kafka: 29092, elasticsearch: 29200 } as const;

export interface EnginesSettings {
  /** The repository (scripts/engines/engines-pom.xml is found from it). */
  repoRoot: string;
  /** ENGINES_HOME: everything is kept here by default (default <repo>/.engines). */
  home: string;
  /** ENGINES_CACHE: the artifacts (default <home>/cache). */
  cache: string;
  kafkaVersion: string;
  elasticsearchVersion: string;
  java: JavaChoice;
  engineUser: string;
  /** The single-node engines' ports (0: any free port). */
  ports: SinglePorts;
  startTimeoutMs: { kafka: number; elasticsearch: number };
  /** The single-node Elasticsearch's heap in MB (ENGINES_ELASTICSEARCH_HEAP_MB; takes effect when the engine starts). */
  elasticsearchHeapMb: number;
  clusterBasePorts: { kafka: number; elasticsearch: number };
  log: Log;
}

export function defaultSettings(repoRoot: string, overrides: Partial<EnginesSettings> = {}): EnginesSettings {
  const home = overrides.home ?? path.join(repoRoot, '.engines');
  return {
    repoRoot,
    home,
    cache: overrides.cache ?? path.join(home, 'cache'),
    kafkaVersion: KAFKA_VERSION,
    elasticsearchVersion: ELASTICSEARCH_VERSION,
    java: {},
    engineUser: 'gitdex-engines',
    ports: { ...SINGLE_PORTS },
    startTimeoutMs: { kafka: 90_000, elasticsearch: 180_000 },
    elasticsearchHeapMb: 512,
    clusterBasePorts: { ...CLUSTER_BASE_PORTS },
    log: stderrLog,
    ...overrides,
  };
}

/** The options of the cluster of these settings (in <home>/cluster unless `home` says otherwise). */
export function clusterOptions(settings: EnginesSettings, extra: Partial<ClusterOptions> = {}): ClusterOptions {
  return {
    home: path.join(settings.home, 'cluster'),
    cache: settings.cache,
    pom: path.join(settings.repoRoot, 'scripts', 'engines', 'engines-pom.xml'),
    kafkaVersion: settings.kafkaVersion,
    elasticsearchVersion: settings.elasticsearchVersion,
    java: settings.java,
    engineUser: settings.engineUser,
    basePorts: settings.clusterBasePorts,
    log: settings.log,
    ...extra,
  };
}

/**
 * The settings a process environment asks for (ENGINES_HOME, ENGINES_CACHE, ENGINES_*_VERSION,
 * ENGINES_*_PORT, ENGINES_*_START_TIMEOUT_MS, ENGINES_USER, ES_JAVA_HOME, KAFKA_JAVA_HOME,
 * JAVA_HOME, ENGINES_CLUSTER_*_PORT). The CLI passes process.env; the test harness too.
 */
export function settingsFromEnv(repoRoot: string, env: Record<string, string | undefined>): EnginesSettings {
  const base = defaultSettings(repoRoot, env.ENGINES_HOME ? { home: path.resolve(env.ENGINES_HOME) } : {});
  const num = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);
  return {
    ...base,
    cache: env.ENGINES_CACHE ? path.resolve(env.ENGINES_CACHE) : base.cache,
    kafkaVersion: env.ENGINES_KAFKA_VERSION || base.kafkaVersion,
    elasticsearchVersion: env.ENGINES_ELASTICSEARCH_VERSION || base.elasticsearchVersion,
    java: { elasticsearchJavaHome: env.ES_JAVA_HOME, kafkaJavaHome: env.KAFKA_JAVA_HOME, javaHome: env.JAVA_HOME },
    engineUser: env.ENGINES_USER || base.engineUser,
    ports: {
      kafka: num(env.ENGINES_KAFKA_PORT, base.ports.kafka),
      kafkaController: num(env.ENGINES_KAFKA_CONTROLLER_PORT, base.ports.kafkaController),
      elasticsearch: num(env.ENGINES_ELASTICSEARCH_PORT, base.ports.elasticsearch),
      elasticsearchTransport: num(env.ENGINES_ELASTICSEARCH_TRANSPORT_PORT, base.ports.elasticsearchTransport),
    },
    startTimeoutMs: {
      kafka: num(env.ENGINES_KAFKA_START_TIMEOUT_MS, base.startTimeoutMs.kafka),
      elasticsearch: num(env.ENGINES_ELASTICSEARCH_START_TIMEOUT_MS, base.startTimeoutMs.elasticsearch),
    },
    elasticsearchHeapMb: heapMb(env.ENGINES_ELASTICSEARCH_HEAP_MB, base.elasticsearchHeapMb),
    clusterBasePorts: {
      kafka: num(env.ENGINES_CLUSTER_KAFKA_PORT, base.clusterBasePorts.kafka),
      elasticsearch: num(env.ENGINES_CLUSTER_ELASTICSEARCH_PORT, base.clusterBasePorts.elasticsearch),
    },
  };
}

/** A heap size in MB from the environment: a whole number from 256 on, or a clear error. */
function heapMb(value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const mb = Number(value);
  if (!Number.isInteger(mb) || mb < 256) throw new Error(`ENGINES_ELASTICSEARCH_HEAP_MB must be a whole number of megabytes, at least 256 (got "${value}")`);
  return mb;
}
