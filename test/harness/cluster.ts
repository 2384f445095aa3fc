// A private three-broker Kafka and three-node Elasticsearch cluster for one test file
// (scripts/engines/cluster.ts, imported directly), on free ports, in its own folder under
// <ENGINES_HOME>/private, so it never meets the shared single-node engines or `engines:up --cluster`.
import crypto from 'node:crypto';
import path from 'node:path';
import { clusterDestroy, clusterStatus, clusterUp, startClusterNode, stopClusterNode, type ClusterEngine, type ClusterNodeStatus, type ClusterOptions } from '../../scripts/engines/cluster.ts';
import { clusterOptions, defaultSettings } from '../../scripts/engines/settings.ts';

const REPO_ROOT = path.resolve(__dirname, '../..');

export interface PrivateCluster {
  kafkaBrokers: string;
  elasticsearchUrl: string;
  /** Stop one node (Kafka by node id, Elasticsearch 1-based), keeping its data; force: SIGKILL. */
  stop(engine: ClusterEngine, node: number, opts?: { force?: boolean }): Promise<void>;
  /** Start it again; resolves once the cluster counts every node again. */
  start(engine: ClusterEngine, node: number): Promise<void>;
  status(): ClusterNodeStatus[];
  /** Stop every JVM and delete the folder. Call it in afterAll. */
  close(): Promise<void>;
}

/** Options of a private cluster: the engines' home and cache from the environment as the CLI reads them. */
export function privateClusterOptions(label: string): ClusterOptions {
  const home = path.resolve(process.env.ENGINES_HOME ?? path.join(REPO_ROOT, '.engines'));
  const settings = defaultSettings(REPO_ROOT, {
    home,
    cache: path.resolve(process.env.ENGINES_CACHE ?? path.join(home, 'cache')),
    clusterBasePorts: { kafka: 0, elasticsearch: 0 },
    log: (line) => process.stderr.write(`[cluster:${label}] ${line}\n`),
  });
  const folder = `${label.replace(/[^A-Za-z0-9_.-]/g, '_')}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  return clusterOptions(settings, {
    home: path.join(home, 'private', folder),
    java: { elasticsearchJavaHome: process.env.ES_JAVA_HOME, kafkaJavaHome: process.env.KAFKA_JAVA_HOME, javaHome: process.env.JAVA_HOME },
  });
}

/** Starts a private cluster (~1-4 min on a busy 2-core machine; ~3.3 GB of memory). */
export async function privateCluster(label: string): Promise<PrivateCluster> {
  const o = privateClusterOptions(label);
  try {
    const e = await clusterUp(o);
    return {
      kafkaBrokers: e.kafkaBrokers,
      elasticsearchUrl: e.elasticsearchUrl,
      stop: (engine, node, opts = {}) => stopClusterNode(o, engine, node, opts),
      start: (engine, node) => startClusterNode(o, engine, node),
      status: () => clusterStatus(o),
      close: () => clusterDestroy(o),
    };
  } catch (error) {
    await clusterDestroy(o).catch(() => undefined);
    throw error;
  }
}
