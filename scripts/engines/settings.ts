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
