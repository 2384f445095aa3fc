// The private cluster's model and where its home keeps everything: options, the node layout
// recorded in cluster.json, each node's folder, log and process marks, and a fresh layout's ports.
import crypto from 'node:crypto';
import path from 'node:path';
import { portsFrom } from './cluster-ports.ts';
import { kafkaClusterId } from './config-files.ts';
import type { JavaChoice } from './jdk.ts';
import { processMarks } from './processes.ts';
import { readJson, type Log } from './util.ts';

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

export interface KafkaNodeState {
  nodeId: number;
  port: number;
  controllerPort: number;
  pgid?: number;
}

export interface EsNodeState {
  name: string;
  port: number;
  transportPort: number;
  pgid?: number;
}

export interface ClusterState {
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
export const DEFAULTS = { nodes: 3, kafkaHeapMb: 320, elasticsearchHeapMb: 512, startTimeoutMs: 600_000 };

export function idOf(home: string): string {
  return crypto.createHash('sha1').update(path.resolve(home)).digest('hex').slice(0, 12);
}

export const statePath = (o: ClusterOptions) => path.join(o.home, 'cluster.json');
export const kafkaDir = (o: ClusterOptions, nodeId: number) => path.join(o.home, `kafka-${nodeId}`);
export const esDir = (o: ClusterOptions, name: string) => path.join(o.home, name);
export const kafkaOut = (o: ClusterOptions, nodeId: number) => path.join(kafkaDir(o, nodeId), 'logs', 'kafka.out');
export const esOut = (o: ClusterOptions, name: string) => path.join(esDir(o, name), 'logs', 'elasticsearch.out');
export const kafkaMark = (o: ClusterOptions, nodeId: number) => processMarks(`cluster-kafka-${nodeId}`, idOf(o.home));
export const esMark = (o: ClusterOptions, name: string) => processMarks(`cluster-${name}`, idOf(o.home));

export function loadState(o: ClusterOptions): ClusterState | undefined {
  const state = readJson<ClusterState>(statePath(o));
  if (!state || state.kafkaVersion !== o.kafkaVersion || state.elasticsearchVersion !== o.elasticsearchVersion) return undefined;
  return state;
}

export function requireState(o: ClusterOptions): ClusterState {
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

export async function newState(o: ClusterOptions): Promise<ClusterState> {
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

export const lockOf = (o: ClusterOptions) => path.join(o.home, 'cluster.lock');
