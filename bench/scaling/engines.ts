// The engines of a scaling run: a cluster given by KAFKA_BROKERS / ELASTICSEARCH_URL (comma
// separated lists), or a private three-broker Kafka and three-node Elasticsearch started with the
// cluster tooling (scripts/engines/cluster.ts through test/harness/cluster.ts) and removed after.
import { privateCluster } from '../../test/harness/cluster';

export interface ScalingEngines {
  kafkaBrokers: string;
  elasticsearchUrl: string;
  provenance: string;
  /** pids of the engine JVMs when this run started them (their CPU is measured too). */
  jvmPids(): { kafka: number[]; elasticsearch: number[] };
  release(): Promise<void>;
}

export async function acquireClusterEngines(log: (line: string) => void): Promise<ScalingEngines> {
  const { KAFKA_BROKERS, ELASTICSEARCH_URL } = process.env;
  if (KAFKA_BROKERS && ELASTICSEARCH_URL) {
    return {
      kafkaBrokers: KAFKA_BROKERS,
      elasticsearchUrl: ELASTICSEARCH_URL,
      provenance: 'given by KAFKA_BROKERS / ELASTICSEARCH_URL (engine CPU not measured)',
      jvmPids: () => ({ kafka: [], elasticsearch: [] }),
      release: () => Promise.resolve(),
    };
  }
  log('starting a private cluster: 3 Kafka brokers, 3 Elasticsearch nodes (scripts/engines/cluster.ts)');
  const began = Date.now();
  const cluster = await privateCluster('scaling');
  log(`cluster up after ${((Date.now() - began) / 1000).toFixed(0)} s: ${cluster.kafkaBrokers} | ${cluster.elasticsearchUrl}`);
  const pids = (engine: 'kafka' | 'elasticsearch') =>
    cluster
      .status()
      .filter((n) => n.engine === engine && n.pid !== undefined)
      .map((n) => n.pid!);
  return {
    kafkaBrokers: cluster.kafkaBrokers,
    elasticsearchUrl: cluster.elasticsearchUrl,
    provenance: `private cluster started by this run (3 brokers, 3 data nodes; cold start ${((Date.now() - began) / 1000).toFixed(0)} s)`,
    jvmPids: () => ({ kafka: pids('kafka'), elasticsearch: pids('elasticsearch') }),
    release: () => cluster.close(),
  };
}
