// A production-shaped set of engines on loopback: three Kafka brokers (KRaft, each a voter of the
// controller quorum) and three Elasticsearch nodes (master-eligible data nodes) forming one cluster.
// Each node is a JVM of its own that can be stopped, killed (a crash) and started again with its
// data, so tests can take down the broker leading a partition or the node holding a primary.
// This module is the API (up, down, destroy, one node's stop/start/signal, endpoints, status); the
// model, launching, processes and health checks are in cluster-*.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fetchElasticsearch, fetchKafka } from './artifacts.ts';
import { waitClusterHealthy, type Watched } from './cluster-health.ts';
import { artifactOptions, launchEsNode, launchKafkaNode } from './cluster-launch.ts';
import { nodeGroups, nodeRunning, stopAll } from './cluster-processes.ts';
import {
  DEFAULTS,
  endpointsOf,
  esMark,
  esOut,
  kafkaMark,
  kafkaOut,
  loadState,
  lockOf,
  newState,
  requireState,
  statePath,
  type ClusterEndpoints,
  type ClusterEngine,
  type ClusterNodeStatus,
  type ClusterOptions,
  type ClusterState,
  type EsNodeState,
  type KafkaNodeState,
} from './cluster-state.ts';
import { withLock } from './locks.ts';
import { groupRssMb, killGroups, markedProcesses, signalGroup } from './processes.ts';
import { errorMessage, writeJson } from './util.ts';

export { endpointsOf, type ClusterEndpoints, type ClusterEngine, type ClusterNodeStatus, type ClusterOptions } from './cluster-state.ts';

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
