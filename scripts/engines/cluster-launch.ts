// Launching one node of the private cluster as a JVM of its own: its config from the whole
// layout (every broker a voter, every Elasticsearch node a seed), Kafka's storage formatted on a
// fresh start, Elasticsearch handed to the engine user when we are root.
import fs from 'node:fs';
import path from 'node:path';
import { fetchElasticsearch, fetchKafka } from './artifacts.ts';
import { DEFAULTS, esDir, esMark, esOut, idOf, kafkaDir, kafkaMark, kafkaOut, type ClusterOptions, type ClusterState, type EsNodeState, type KafkaNodeState } from './cluster-state.ts';
import { elasticsearchClusterYml, KAFKA_LOG4J2, kafkaClusterProperties, kafkaJvmFlags, type EsNodeConfig, type KafkaNodeConfig } from './config-files.ts';
import { elasticsearchJavaHome, kafkaJava } from './jdk.ts';
import { spawnDetached } from './processes.ts';
import { asUser, engineUser } from './system-user.ts';
import { run, runChecked } from './util.ts';

export function artifactOptions(o: ClusterOptions) {
  return {
    cache: o.cache,
    pom: o.pom,
    kafkaVersion: o.kafkaVersion,
    elasticsearchVersion: o.elasticsearchVersion,
    log: o.log,
    javaHomeForJar: () => elasticsearchJavaHome(o.java, o.elasticsearchVersion),
  };
}

function kafkaNodeConfig(o: ClusterOptions, node: KafkaNodeState): KafkaNodeConfig {
  return { nodeId: node.nodeId, port: node.port, controllerPort: node.controllerPort, dataDir: path.join(kafkaDir(o, node.nodeId), 'data') };
}

export async function launchKafkaNode(o: ClusterOptions, state: ClusterState, node: KafkaNodeState, fresh: boolean): Promise<number> {
  const libs = await fetchKafka(artifactOptions(o));
  const java = kafkaJava(o.java, o.kafkaVersion);
  const dir = kafkaDir(o, node.nodeId);
  const config = kafkaNodeConfig(o, node);
  const logs = path.join(dir, 'logs');
  const properties = path.join(dir, 'server.properties');
  const log4j = path.join(dir, 'log4j2.properties');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(
    properties,
    kafkaClusterProperties(
      config,
      state.kafka.map((k) => kafkaNodeConfig(o, k)),
    ),
  );
  fs.writeFileSync(log4j, KAFKA_LOG4J2);
  const flags = kafkaJvmFlags(o.kafkaHeapMb ?? DEFAULTS.kafkaHeapMb, log4j, logs);
  const classpath = path.join(libs, '*');
  if (fresh || !fs.existsSync(path.join(config.dataDir, 'meta.properties'))) {
    fs.rmSync(config.dataDir, { recursive: true, force: true });
    fs.mkdirSync(config.dataDir, { recursive: true });
    // Every node formats with the same cluster id; the static quorum needs no initial controllers.
    runChecked(java, [...flags.filter((f) => !f.startsWith('-Xm')), '-Xmx256m', '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', state.kafkaClusterId, '-c', properties]);
  }
  const out = kafkaOut(o, node.nodeId);
  fs.appendFileSync(out, `\n==== ${new Date().toISOString()} starting Kafka ${o.kafkaVersion} node ${node.nodeId} on 127.0.0.1:${node.port} ====\n`);
  return spawnDetached([java, ...flags, ...kafkaMark(o, node.nodeId), '-cp', classpath, 'kafka.Kafka', properties], { cwd: dir, outFile: out }, o.log);
}

function esNodeConfig(o: ClusterOptions, node: EsNodeState): EsNodeConfig {
  const dir = esDir(o, node.name);
  return { name: node.name, port: node.port, transportPort: node.transportPort, dataDir: path.join(dir, 'data'), logsDir: path.join(dir, 'logs') };
}

export async function launchEsNode(o: ClusterOptions, state: ClusterState, node: EsNodeState, fresh: boolean): Promise<number> {
  const install = await fetchElasticsearch(artifactOptions(o));
  const javaHome = elasticsearchJavaHome(o.java, o.elasticsearchVersion);
  const user = engineUser(o.engineUser, o.log);
  const dir = esDir(o, node.name);
  const config = esNodeConfig(o, node);
  const confDir = path.join(dir, 'config');
  const tmp = path.join(dir, 'tmp');
  if (fresh) fs.rmSync(config.dataDir, { recursive: true, force: true });
  for (const d of [config.dataDir, config.logsDir, tmp]) fs.mkdirSync(d, { recursive: true });
  fs.rmSync(confDir, { recursive: true, force: true });
  fs.cpSync(path.join(install, 'config'), confDir, { recursive: true });
  fs.writeFileSync(
    path.join(confDir, 'elasticsearch.yml'),
    elasticsearchClusterYml(
      `gitdex-cluster-${idOf(o.home)}`,
      config,
      state.elasticsearch.map((e) => esNodeConfig(o, e)),
    ),
  );
  if (user) {
    runChecked('chown', ['-R', `${user.uid}:${user.gid}`, dir, install]);
    const probe = asUser(user, ['test', '-r', path.join(install, 'lib'), '-a', '-w', config.dataDir]);
    if (run(probe[0]!, probe.slice(1)).status !== 0) {
      throw new Error(`user ${user.name} cannot reach ${dir} (a parent folder of ${o.home} is not searchable by other users); use a home under /tmp or /var/tmp`);
    }
  }
  const out = esOut(o, node.name);
  fs.appendFileSync(out, `\n==== ${new Date().toISOString()} starting Elasticsearch ${o.elasticsearchVersion} ${node.name} on 127.0.0.1:${node.port} ====\n`);
  const heap = o.elasticsearchHeapMb ?? DEFAULTS.elasticsearchHeapMb;
  const env = {
    PATH: process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LANG: 'C.UTF-8',
    HOME: dir,
    ES_JAVA_HOME: javaHome,
    ES_PATH_CONF: confDir,
    ES_TMPDIR: tmp,
    ES_JAVA_OPTS: [`-Xms${heap}m`, `-Xmx${heap}m`, '-XX:CICompilerCount=2', '-XX:ParallelGCThreads=1', '-XX:ConcGCThreads=1', ...esMark(o, node.name)].join(' '),
  };
  return spawnDetached(asUser(user, [path.join(install, 'bin', 'elasticsearch')]), { cwd: dir, outFile: out, env, outOwner: user }, o.log);
}
