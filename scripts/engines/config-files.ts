// The engines' configuration files, rewritten on every start (edits are lost): Kafka's
// server.properties and log4j2, Elasticsearch's elasticsearch.yml; for one node or a cluster.
import crypto from 'node:crypto';

export interface KafkaNodeConfig {
  nodeId: number;
  port: number;
  controllerPort: number;
  dataDir: string;
}

/** One combined broker+controller of a cluster whose controller quorum is every node (`voters`). */
export function kafkaClusterProperties(node: KafkaNodeConfig, voters: KafkaNodeConfig[]): string {
  const replicas = Math.min(3, voters.length);
  const minIsr = replicas >= 3 ? 2 : 1;
  return [
    '# Written by scripts/engines on every start; edits are lost.',
    'process.roles=broker,controller',
    `node.id=${node.nodeId}`,
    // A static quorum: every node votes, so the cluster keeps a controller with one node down.
    `controller.quorum.voters=${voters.map((v) => `${v.nodeId}@127.0.0.1:${v.controllerPort}`).join(',')}`,
    `listeners=PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${node.port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${node.dataDir}`,
    'num.partitions=6',
    `default.replication.factor=${replicas}`,
    `min.insync.replicas=${minIsr}`,
    'unclean.leader.election.enable=false',
    'auto.create.topics.enable=true',
    'delete.topic.enable=true',
    `offsets.topic.replication.factor=${replicas}`,
    'offsets.topic.num.partitions=3',
    `transaction.state.log.replication.factor=${replicas}`,
    `transaction.state.log.min.isr=${minIsr}`,
    'transaction.state.log.num.partitions=1',
    `share.coordinator.state.topic.replication.factor=${replicas}`,
    `share.coordinator.state.topic.min.isr=${minIsr}`,
    'group.initial.rebalance.delay.ms=0',
    // A crashed broker is fenced (and its partitions get new leaders) after 4 s instead of 9 s,
    // and a restarted one can register again as soon.
    'broker.heartbeat.interval.ms=500',
    'broker.session.timeout.ms=4000',
    // Followers that stop fetching leave the ISR after 10 s (30 s by default).
    'replica.lag.time.max.ms=10000',
    'num.network.threads=2',
    'num.io.threads=2',
    'num.replica.fetchers=1',
    'num.recovery.threads.per.data.dir=1',
    'background.threads=2',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

/** The single combined broker+controller of the shared engines (a dynamic quorum of one, `--standalone`). */
export function kafkaSingleProperties(port: number, controllerPort: number, dataDir: string): string {
  return [
    '# Written by scripts/engines on every start; edits are lost.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.bootstrap.servers=127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=6',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    'auto.create.topics.enable=true',
    'delete.topic.enable=true',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    // After a crash (SIGKILL) the restarted broker cannot register until the controller has
    // expired its previous session: 9 s by default, 4 s here.
    'broker.heartbeat.interval.ms=500',
    'broker.session.timeout.ms=4000',
    'num.network.threads=2',
    'num.io.threads=4',
    'num.recovery.threads.per.data.dir=1',
    'log.retention.hours=24',
    '',
  ].join('\n');
}

export const KAFKA_LOG4J2 = `# Written by scripts/engines. The broker's console goes to logs/kafka.out.
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.config.name = org.apache.kafka.common.config.AbstractConfig
logger.config.level = WARN
logger.appinfo.name = org.apache.kafka.common.utils.AppInfoParser
logger.appinfo.level = WARN
logger.statechange.name = state.change.logger
logger.statechange.level = WARN
`;

/** A Kafka cluster id: 16 random bytes, base64url without padding, not starting with '-'. */
export function kafkaClusterId(): string {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** JVM flags of a broker; `lean` (the cluster's brokers): one GC thread, two JIT threads each, for a few shared cores. */
export function kafkaJvmFlags(heapMb: number, log4jFile: string, logsDir: string, lean = true): string[] {
  return [
    `-Xms${heapMb}m`,
    `-Xmx${heapMb}m`,
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-XX:+ExitOnOutOfMemoryError',
    ...(lean ? ['-XX:ParallelGCThreads=1', '-XX:ConcGCThreads=1', '-XX:CICompilerCount=2'] : []),
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${log4jFile}`,
    `-Dkafka.logs.dir=${logsDir}`,
  ];
}

export interface EsNodeConfig {
  name: string;
  port: number;
  transportPort: number;
  dataDir: string;
  logsDir: string;
}

/** One master-eligible data node of a cluster of `members` (they find each other on their transport ports). */
export function elasticsearchClusterYml(clusterName: string, node: EsNodeConfig, members: EsNodeConfig[]): string {
  // The integ-test-zip has only a few modules (no analysis-common, ml, ...): settings of absent
  // modules would be rejected at start.
  return [
    '# Written by scripts/engines on every start; edits are lost.',
    `cluster.name: ${clusterName}`,
    `node.name: ${node.name}`,
    'node.roles: [master, data]',
    'network.host: 127.0.0.1',
    `http.port: ${node.port}`,
    `transport.port: ${node.transportPort}`,
    `discovery.seed_hosts: [${members.map((m) => `"127.0.0.1:${m.transportPort}"`).join(', ')}]`,
    // Only read when the cluster forms for the first time (fresh data folders).
    `cluster.initial_master_nodes: [${members.map((m) => `"${m.name}"`).join(', ')}]`,
    `path.data: ${node.dataDir}`,
    `path.logs: ${node.logsDir}`,
    'xpack.security.enabled: false',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.destructive_requires_name: false',
    // A node that left is given up on (its replicas promoted elsewhere) after 10 s, not 60 s.
    'cluster.fault_detection.follower_check.interval: 1s',
    'cluster.fault_detection.leader_check.interval: 1s',
    'node.processors: 1',
    '',
  ].join('\n');
}

/** The single node of the shared engines. */
export function elasticsearchSingleYml(port: number, transportPort: number, dataDir: string, logsDir: string): string {
  // The integ-test-zip has only a few modules (no analysis-common, mapper-extras, ingest-common,
  // ml, ...), so settings of absent modules (xpack.ml.enabled, ...) would be rejected at start.
  return [
    '# Written by scripts/engines on every start; edits are lost.',
    'cluster.name: gitdex-engines',
    'node.name: gitdex-engines-es',
    'node.roles: [master, data]', // no ingest: the distribution has no ingest processors anyway
    'discovery.type: single-node',
    'network.host: 127.0.0.1',
    `http.port: ${port}`,
    `transport.port: ${transportPort}`,
    `path.data: ${dataDir}`,
    `path.logs: ${logsDir}`,
    'xpack.security.enabled: false',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.destructive_requires_name: false',
    '',
  ].join('\n');
}
