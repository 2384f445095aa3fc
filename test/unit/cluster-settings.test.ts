// The settings that put gitdex on clusters: topic replication from the broker count, node lists,
// index replicas; and the engines tooling's cluster configuration files.
import { EnvSchema, loadEnv } from '@gitdex/contracts';
import { resolveOptions } from '@gitdex/elasticsearch';
import { replicationFor } from '@gitdex/kafka';
import { indexSettings } from '../../libs/elasticsearch/src/mappings';
import { elasticsearchClusterYml, kafkaClusterProperties } from '../../scripts/engines/config-files.ts';
import { settingsFromEnv } from '../../scripts/engines/settings.ts';

describe('topic replication', () => {
  it('is three replicas with two in sync on three or more brokers, the broker default below', () => {
    expect(replicationFor(3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(replicationFor(5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(replicationFor(1)).toEqual({ replicationFactor: -1 });
    expect(replicationFor(2)).toEqual({ replicationFactor: -1 });
  });

  it('follows KAFKA_REPLICATION_FACTOR when set', () => {
    expect(replicationFor(1, 1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(replicationFor(3, 2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
    expect(loadEnv({ KAFKA_REPLICATION_FACTOR: '3' }).KAFKA_REPLICATION_FACTOR).toBe(3);
    expect(() => loadEnv({ KAFKA_REPLICATION_FACTOR: '0' })).toThrow(/KAFKA_REPLICATION_FACTOR/);
  });
});

describe('Elasticsearch on several nodes', () => {
  it('takes a comma-separated node list and refuses anything that is not URLs', () => {
    const env = loadEnv({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200, http://127.0.0.1:9201' });
    expect(resolveOptions({ node: env.ELASTICSEARCH_URL! }).nodes).toEqual(['http://127.0.0.1:9200', 'http://127.0.0.1:9201']);
    expect(resolveOptions({ node: 'http://user:secret@a:9200,http://b:9200' }).nodeLabel).toBe('http://a:9200,http://b:9200');
    expect(() => loadEnv({ ELASTICSEARCH_URL: 'http://a:9200,not a url' })).toThrow(/ELASTICSEARCH_URL/);
    expect(EnvSchema.safeParse({ ELASTICSEARCH_URL: 'http://a:9200' }).success).toBe(true);
  });

  it('gives indices one replica once a second data node exists, or exactly ELASTICSEARCH_REPLICAS', () => {
    expect(indexSettings('files')).toMatchObject({ auto_expand_replicas: '0-1' });
    expect(indexSettings('repos', 2)).toMatchObject({ number_of_replicas: 2, auto_expand_replicas: 'false' });
    expect(loadEnv({ ELASTICSEARCH_REPLICAS: '0' }).ELASTICSEARCH_REPLICAS).toBe(0);
    expect(() => resolveOptions({ node: 'http://a:9200', replicas: -1 })).toThrow(/replicas/);
  });
});

describe('engines tooling: cluster configuration', () => {
  const nodes = [1, 2, 3].map((nodeId) => ({ nodeId, port: 29091 + nodeId, controllerPort: 29191 + nodeId, dataDir: `/d/${nodeId}` }));

  it('makes every broker a voter of one controller quorum, with replicated internal topics', () => {
    const text = kafkaClusterProperties(nodes[1]!, nodes);
    expect(text).toContain('node.id=2\n');
    expect(text).toContain('controller.quorum.voters=1@127.0.0.1:29192,2@127.0.0.1:29193,3@127.0.0.1:29194\n');
    expect(text).toContain('listeners=PLAINTEXT://127.0.0.1:29093,CONTROLLER://127.0.0.1:29193\n');
    for (const line of ['default.replication.factor=3', 'min.insync.replicas=2', 'offsets.topic.replication.factor=3', 'unclean.leader.election.enable=false']) expect(text).toContain(`${line}\n`);
  });

  it('lets the Elasticsearch nodes find each other and form one cluster', () => {
    const members = [1, 2, 3].map((i) => ({ name: `es-${i}`, port: 29199 + i, transportPort: 29299 + i, dataDir: `/e/${i}`, logsDir: `/l/${i}` }));
    const yml = elasticsearchClusterYml('c', members[0]!, members);
    expect(yml).toContain('discovery.seed_hosts: ["127.0.0.1:29300", "127.0.0.1:29301", "127.0.0.1:29302"]');
    expect(yml).toContain('cluster.initial_master_nodes: ["es-1", "es-2", "es-3"]');
    expect(yml).not.toContain('single-node');
  });

  it('reads the environment only through settingsFromEnv, with ports clear of the shared engines', () => {
    const defaults = settingsFromEnv('/repo', {});
    expect(defaults.ports).toEqual({ kafka: 19092, kafkaController: 19093, elasticsearch: 19200, elasticsearchTransport: 19300 });
    expect(defaults.clusterBasePorts).toEqual({ kafka: 29092, elasticsearch: 29200 });
    expect(defaults.home).toBe('/repo/.engines');
    const custom = settingsFromEnv('/repo', { ENGINES_HOME: '/tmp/e', ENGINES_CLUSTER_KAFKA_PORT: '39092', ES_JAVA_HOME: '/jdk' });
    expect(custom).toMatchObject({ home: '/tmp/e', cache: '/tmp/e/cache', clusterBasePorts: { kafka: 39092, elasticsearch: 29200 }, java: { elasticsearchJavaHome: '/jdk' } });
  });

  it('gives the single-node Elasticsearch 512 MB of heap unless ENGINES_ELASTICSEARCH_HEAP_MB names a whole number from 256 on', () => {
    expect(settingsFromEnv('/repo', {}).elasticsearchHeapMb).toBe(512);
    expect(settingsFromEnv('/repo', { ENGINES_ELASTICSEARCH_HEAP_MB: '2048' }).elasticsearchHeapMb).toBe(2048);
    for (const wrong of ['2g', '100', '1.5', '-1']) expect(() => settingsFromEnv('/repo', { ENGINES_ELASTICSEARCH_HEAP_MB: wrong })).toThrow(/ENGINES_ELASTICSEARCH_HEAP_MB must be a whole number/);
  });
});
