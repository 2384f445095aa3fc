// A production-shaped set of engines on loopback: three Kafka brokers (KRaft, each a voter of the
// controller quorum) and three Elasticsearch nodes (master-eligible data nodes) forming one cluster.
// Each node is a JVM of its own that can be stopped, killed (a crash) and started again with its
// data, so tests can take down the broker leading a partition or the node holding a primary.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fetchElasticsearch, fetchKafka } from './artifacts.ts';
import { elasticsearchClusterYml, KAFKA_LOG4J2, kafkaClusterId, kafkaClusterProperties, kafkaJvmFlags, type EsNodeConfig, type KafkaNodeConfig } from './config-files.ts';
import { elasticsearchJavaHome, kafkaJava, type JavaChoice } from './jdk.ts';
import { withLock } from './locks.ts';
import { elasticsearchHealthy, kafkaHealthy } from './probes.ts';
import { groupMembers, groupRssMb, killGroups, markedProcesses, processMarks, signalGroup, spawnDetached } from './processes.ts';
import { asUser, engineUser } from './system-user.ts';
import { portsFrom } from './cluster-ports.ts';
import { errorMessage, readJson, run, runChecked, sleep, tail, writeJson, type Log } from './util.ts';

export type ClusterEngine = 'kafka' | 'elasticsearch';

export interface ClusterOptions {
  /** Folder of this cluster: state, config, data and logs of every node. */
  home: string;
  /** Artifact cache (may be shared with other homes). */
  cache: string;
  /** scripts/engines/engines-pom.xml. */
  pom: string;
  kafkaVersion: string;
  elasticsearchVersion: string;
  java: JavaChoice;
  /** The system user Elasticsearch runs as when we are root. */
  engineUser: string;
  /** First ports (0: any free ports): brokers on kafka, kafka+1, kafka+2, controllers 100 above; ES HTTP on elasticsearch.., transport 100 above. */
  basePorts: { kafka: number; elasticsearch: number };
  /** Nodes of each engine (default 3). */
  nodes?: number;
  kafkaHeapMb?: number;
  elasticsearchHeapMb?: number;
  startTimeoutMs?: number;
  log: Log;
}

interface KafkaNodeState {
  nodeId: number;
  port: number;
  controllerPort: number;
  pgid?: number;
}

interface EsNodeState {
  name: string;
  port: number;
  transportPort: number;
  pgid?: number;
}

interface ClusterState {
  kafkaVersion: string;
  elasticsearchVersion: string;
  kafkaClusterId: string;
  kafka: KafkaNodeState[];
  elasticsearch: EsNodeState[];
}

export interface ClusterEndpoints {
  /** host:port of every broker, comma-separated. */
  kafkaBrokers: string;
  /** URL of every Elasticsearch node, comma-separated. */
  elasticsearchUrl: string;
}

export interface ClusterNodeStatus {
  engine: ClusterEngine;
  /** Kafka: the broker's node id; Elasticsearch: 1-based index of the node. */
  node: number;
  name: string;
  endpoint: string;
  running: boolean;
  pid: number | undefined;
  rssMb: number;
  log: string;
}

// Start timeout: an Elasticsearch node took 150-250 s to join on the shared 2-core machine at load 20-29.
const DEFAULTS = { nodes: 3, kafkaHeapMb: 320, elasticsearchHeapMb: 512, startTimeoutMs: 600_000 };

function idOf(home: string): string {
  return crypto.createHash('sha1').update(path.resolve(home)).digest('hex').slice(0, 12);
}

const statePath = (o: ClusterOptions) => path.join(o.home, 'cluster.json');
const kafkaDir = (o: ClusterOptions, nodeId: number) => path.join(o.home, `kafka-${nodeId}`);
const esDir = (o: ClusterOptions, name: string) => path.join(o.home, name);
const kafkaOut = (o: ClusterOptions, nodeId: number) => path.join(kafkaDir(o, nodeId), 'logs', 'kafka.out');
const esOut = (o: ClusterOptions, name: string) => path.join(esDir(o, name), 'logs', 'elasticsearch.out');
const kafkaMark = (o: ClusterOptions, nodeId: number) => processMarks(`cluster-kafka-${nodeId}`, idOf(o.home));
const esMark = (o: ClusterOptions, name: string) => processMarks(`cluster-${name}`, idOf(o.home));

function loadState(o: ClusterOptions): ClusterState | undefined {
  const state = readJson<ClusterState>(statePath(o));
  if (!state || state.kafkaVersion !== o.kafkaVersion || state.elasticsearchVersion !== o.elasticsearchVersion) return undefined;
  return state;
}

function requireState(o: ClusterOptions): ClusterState {
  const state = loadState(o);
  if (!state) throw new Error(`no cluster in ${o.home}: run \`engines up --cluster\` first`);
  return state;
}

export function endpointsOf(state: ClusterState): ClusterEndpoints {
  return {
    kafkaBrokers: state.kafka.map((k) => `127.0.0.1:${k.port}`).join(','),
    elasticsearchUrl: state.elasticsearch.map((e) => `http://127.0.0.1:${e.port}`).join(','),
  };
}

async function newState(o: ClusterOptions): Promise<ClusterState> {
  const n = o.nodes ?? DEFAULTS.nodes;
  const taken = new Set<number>();
  const kafkaPorts = await portsFrom(o.basePorts.kafka, n, taken);
  const controllerPorts = await portsFrom(o.basePorts.kafka && o.basePorts.kafka + 100, n, taken);
  const esPorts = await portsFrom(o.basePorts.elasticsearch, n, taken);
  const transportPorts = await portsFrom(o.basePorts.elasticsearch && o.basePorts.elasticsearch + 100, n, taken);
  return {
    kafkaVersion: o.kafkaVersion,
    elasticsearchVersion: o.elasticsearchVersion,
    kafkaClusterId: kafkaClusterId(),
    kafka: kafkaPorts.map((port, i) => ({ nodeId: i + 1, port, controllerPort: controllerPorts[i]! })),
    elasticsearch: esPorts.map((port, i) => ({ name: `es-${i + 1}`, port, transportPort: transportPorts[i]! })),
  };
}

function artifactOptions(o: ClusterOptions) {
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

async function launchKafkaNode(o: ClusterOptions, state: ClusterState, node: KafkaNodeState, fresh: boolean): Promise<number> {
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

async function launchEsNode(o: ClusterOptions, state: ClusterState, node: EsNodeState, fresh: boolean): Promise<number> {
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

/** Process groups of one node: its JVMs' and the one recorded at start (the ES launcher), while it holds our files. */
function nodeGroups(o: ClusterOptions, engine: ClusterEngine, node: KafkaNodeState | EsNodeState): number[] {
  const marks = engine === 'kafka' ? kafkaMark(o, (node as KafkaNodeState).nodeId) : esMark(o, (node as EsNodeState).name);
  const groups = new Set(markedProcesses(marks).map((p) => p.pgid));
  const dir = engine === 'kafka' ? kafkaDir(o, (node as KafkaNodeState).nodeId) : esDir(o, (node as EsNodeState).name);
  if (node.pgid && groupMembers(node.pgid).some((p) => p.cmdline.includes(dir))) groups.add(node.pgid);
  return [...groups].filter((g) => g > 1 && g !== process.pid);
}

function nodeRunning(o: ClusterOptions, engine: ClusterEngine, node: KafkaNodeState | EsNodeState): boolean {
  const marks = engine === 'kafka' ? kafkaMark(o, (node as KafkaNodeState).nodeId) : esMark(o, (node as EsNodeState).name);
  return markedProcesses(marks).length > 0;
}

/** Waits until the cluster answers with `kafkaBrokers` brokers / `esNodes` nodes (0: that engine is not waited for). */
/** A node being started: its log, its process group, and (cold start only) how to launch it again. */
interface Watched {
  out: string;
  pgid: number;
  relaunch?: () => Promise<number>;
  relaunched?: number;
}

async function waitClusterHealthy(o: ClusterOptions, state: ClusterState, want: { kafkaBrokers: number; esNodes: number }, watched: Watched[]): Promise<void> {
  const deadline = Date.now() + (o.startTimeoutMs ?? DEFAULTS.startTimeoutMs);
  const bootstrap = state.kafka.map((k) => `127.0.0.1:${k.port}`);
  let kafkaOk = want.kafkaBrokers === 0;
  let esOk = want.esNodes === 0;
  while (Date.now() < deadline) {
    if (!kafkaOk) kafkaOk = await kafkaHealthy(bootstrap, want.kafkaBrokers);
    if (!esOk) {
      for (const node of state.elasticsearch) {
        if (await elasticsearchHealthy(node.port, want.esNodes)) {
          esOk = true;
          break;
        }
      }
    }
    if (kafkaOk && esOk) return;
    const dead = watched.find((w) => groupMembers(w.pgid).length === 0);
    // On a saturated machine a broker of a cold cluster may give up waiting for the new quorum
    // ("fatal error while waiting for the controller to acknowledge that we are caught up"):
    // launch it again, twice at most, before calling the start failed.
    if (dead?.relaunch && (dead.relaunched ?? 0) < 2) {
      dead.relaunched = (dead.relaunched ?? 0) + 1;
      o.log(`a node exited during start-up; launching it again (${dead.relaunched}/2); see ${dead.out}`);
      dead.pgid = await dead.relaunch();
      kafkaOk = want.kafkaBrokers === 0; // wait for it to register again
      continue;
    }
    if (dead) throw new Error(`a node exited during start-up; last lines of ${dead.out}:\n${tail(dead.out)}`);
    await sleep(500);
  }
  const logs = watched.map((w) => `--- ${w.out}\n${tail(w.out, 15)}`).join('\n');
  throw new Error(
    `the cluster is not healthy after ${(o.startTimeoutMs ?? DEFAULTS.startTimeoutMs) / 1000}s (Kafka ${kafkaOk ? 'ok' : 'not ready'}, Elasticsearch ${esOk ? 'ok' : 'not ready'}):\n${logs}`,
  );
}

const lockOf = (o: ClusterOptions) => path.join(o.home, 'cluster.lock');

async function stopAll(o: ClusterOptions, state: ClusterState | undefined): Promise<void> {
  // Also whatever carries this home's marks without a state file (a crashed `up`).
  const id = idOf(o.home);
  const groups = new Set(
    markedProcesses([`-Dgitdex.engines.id=${id}`])
      .filter((p) => p.cmdline.includes('-Dgitdex.engine=cluster-'))
      .map((p) => p.pgid),
  );
  for (const node of state?.kafka ?? []) for (const g of nodeGroups(o, 'kafka', node)) groups.add(g);
  for (const node of state?.elasticsearch ?? []) for (const g of nodeGroups(o, 'elasticsearch', node)) groups.add(g);
  await killGroups('the cluster', [...groups], o.log);
}

/**
 * Starts the cluster (cold: fresh data, new ports when basePorts are 0), or reuses it when every node
 * runs and it is healthy. Resolves to the comma-separated endpoints.
 */
export async function clusterUp(o: ClusterOptions): Promise<ClusterEndpoints & { started: boolean }> {
  return withLock(lockOf(o), o.log, async () => {
    const current = loadState(o);
    const n = o.nodes ?? DEFAULTS.nodes;
    if (current && current.kafka.length === n && [...current.kafka.map((k) => nodeRunning(o, 'kafka', k)), ...current.elasticsearch.map((e) => nodeRunning(o, 'elasticsearch', e))].every(Boolean)) {
      await waitClusterHealthy(o, current, { kafkaBrokers: n, esNodes: n }, []);
      o.log(`cluster already running (${endpointsOf(current).kafkaBrokers}); reusing it`);
      return { ...endpointsOf(current), started: false };
    }
    await stopAll(o, current);
    await fetchKafka(artifactOptions(o));
    await fetchElasticsearch(artifactOptions(o));
    const state = await newState(o);
    writeJson(statePath(o), state);
    const began = Date.now();
    const e = endpointsOf(state);
    o.log(`starting ${n} Kafka ${o.kafkaVersion} brokers (${e.kafkaBrokers}) and ${n} Elasticsearch ${o.elasticsearchVersion} nodes (${e.elasticsearchUrl}), fresh data`);
    const watched: Watched[] = [];
    try {
      for (const node of state.kafka) {
        node.pgid = await launchKafkaNode(o, state, node, true);
        const relaunch = async () => {
          node.pgid = await launchKafkaNode(o, state, node, false);
          writeJson(statePath(o), state);
          return node.pgid;
        };
        watched.push({ out: kafkaOut(o, node.nodeId), pgid: node.pgid, relaunch });
      }
      for (const node of state.elasticsearch) {
        node.pgid = await launchEsNode(o, state, node, true);
        watched.push({ out: esOut(o, node.name), pgid: node.pgid });
      }
      writeJson(statePath(o), state);
      await waitClusterHealthy(o, state, { kafkaBrokers: n, esNodes: n }, watched);
    } catch (error) {
      // The start's own error is what the caller needs; a failed clean-up is told, not thrown over it.
      await stopAll(o, state).catch((stopError: unknown) => o.log(`cluster: stopping the failed start failed too: ${errorMessage(stopError)}`));
      throw error;
    }
    o.log(`cluster healthy after ${((Date.now() - began) / 1000).toFixed(1)}s`);
    return { ...e, started: true };
  });
}

/** Stops every node of the cluster (SIGTERM, SIGKILL after 30 s); keeps the data until the next `up`. */
export async function clusterDown(o: ClusterOptions): Promise<void> {
  await withLock(lockOf(o), o.log, async () => {
    await stopAll(o, loadState(o));
    o.log('cluster stopped');
  });
}

/** clusterDown, then delete the home (for a test's private cluster; never the shared cache). */
export async function clusterDestroy(o: ClusterOptions): Promise<void> {
  await clusterDown(o);
  if (path.resolve(o.cache).startsWith(path.resolve(o.home) + path.sep)) throw new Error(`the cache ${o.cache} is inside ${o.home}; refusing to delete it`);
  fs.rmSync(o.home, { recursive: true, force: true });
}

function findNode(state: ClusterState, engine: ClusterEngine, node: number): KafkaNodeState | EsNodeState {
  const found = engine === 'kafka' ? state.kafka.find((k) => k.nodeId === node) : state.elasticsearch[node - 1];
  if (!found) throw new Error(`no ${engine} node ${node} in this cluster`);
  return found;
}

/** Stops one node, keeping its data (force: SIGKILL at once, a crash). Kafka nodes by node id, ES nodes 1-based. */
export async function stopClusterNode(o: ClusterOptions, engine: ClusterEngine, node: number, { force = false } = {}): Promise<void> {
  await withLock(lockOf(o), o.log, async () => {
    const state = requireState(o);
    const target = findNode(state, engine, node);
    o.log(`stopping ${engine} node ${node}${force ? ' (SIGKILL)' : ''}`);
    await killGroups(`${engine} node ${node}`, nodeGroups(o, engine, target), o.log, { force });
  });
}

/** Starts a stopped node with its data on its ports; resolves once the cluster counts every node again. */
export async function startClusterNode(o: ClusterOptions, engine: ClusterEngine, node: number): Promise<void> {
  await withLock(lockOf(o), o.log, async () => {
    const state = requireState(o);
    const target = findNode(state, engine, node);
    if (!nodeRunning(o, engine, target)) {
      const began = Date.now();
      target.pgid = engine === 'kafka' ? await launchKafkaNode(o, state, target as KafkaNodeState, false) : await launchEsNode(o, state, target as EsNodeState, false);
      writeJson(statePath(o), state);
      const out = engine === 'kafka' ? kafkaOut(o, node) : esOut(o, (target as EsNodeState).name);
      const n = engine === 'kafka' ? state.kafka.length : state.elasticsearch.length;
      await waitClusterHealthy(o, state, engine === 'kafka' ? { kafkaBrokers: n, esNodes: 0 } : { kafkaBrokers: 0, esNodes: n }, [{ out, pgid: target.pgid }]);
      o.log(`${engine} node ${node} back after ${((Date.now() - began) / 1000).toFixed(1)}s`);
    }
  });
}

/** SIGSTOP / SIGCONT one node (a hung node: its ports stay open, nothing answers). */
export function signalClusterNode(o: ClusterOptions, engine: ClusterEngine, node: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const target = findNode(requireState(o), engine, node);
  for (const g of nodeGroups(o, engine, target)) signalGroup(g, signal);
}

export function clusterEndpoints(o: ClusterOptions): ClusterEndpoints | undefined {
  const state = loadState(o);
  return state ? endpointsOf(state) : undefined;
}

/** Every node: running or not, its endpoint and resident memory (no lock: it only looks). */
export function clusterStatus(o: ClusterOptions): ClusterNodeStatus[] {
  const state = loadState(o);
  if (!state) return [];
  const row = (engine: ClusterEngine, n: number, name: string, endpoint: string, node: KafkaNodeState | EsNodeState, log: string): ClusterNodeStatus => {
    const marks = engine === 'kafka' ? kafkaMark(o, n) : esMark(o, name);
    const procs = markedProcesses(marks);
    const rssMb = nodeGroups(o, engine, node).reduce((sum, g) => sum + groupRssMb(g), 0);
    return { engine, node: n, name, endpoint, running: procs.length > 0, pid: procs[0]?.pid, rssMb, log };
  };
  return [
    ...state.kafka.map((k) => row('kafka', k.nodeId, `kafka-${k.nodeId}`, `127.0.0.1:${k.port}`, k, kafkaOut(o, k.nodeId))),
    ...state.elasticsearch.map((e, i) => row('elasticsearch', i + 1, e.name, `http://127.0.0.1:${e.port}`, e, esOut(o, e.name))),
  ];
}
