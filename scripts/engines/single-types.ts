// The names and shapes the single-node engines speak in: which engine, which set of engines a call
// is about, what is recorded of a started engine, and what status() and endpoints() answer.
// Apart from single.ts so the modules that start, stop and place an engine share them without a cycle.
import type { EnginesSettings, SinglePorts } from './settings.ts';
import type { Log } from './util.ts';

export type EngineName = 'kafka' | 'elasticsearch';
export const ENGINES: EngineName[] = ['kafka', 'elasticsearch'];

/** Which set of engines a call is about: the shared one by default, a private one with privateOptions(). */
export interface EngineOptions {
  home?: string | undefined;
  cache?: string | undefined;
  ports?: Partial<SinglePorts> | undefined;
  log?: Log | undefined;
}

/** What <home>/<engine>/state.json records of a started engine, so a later call finds it again. */
export interface EngineState {
  version: string;
  port: number;
  controllerPort?: number;
  transportPort?: number;
  clusterId?: string;
  pgid?: number;
  startedAt?: string;
}

export interface EngineStatus {
  engine: EngineName;
  version: string;
  running: boolean;
  paused: boolean;
  healthy: boolean;
  pid?: number | undefined;
  endpoint?: string | undefined;
  log: string;
}

export interface Endpoints {
  kafkaBrokers?: string | undefined;
  elasticsearchUrl?: string | undefined;
}

export function canonicalName(name: string): EngineName {
  const n = String(name || '').toLowerCase();
  if (n === 'kafka') return 'kafka';
  if (n === 'elasticsearch' || n === 'es') return 'elasticsearch';
  throw new Error(`unknown engine "${name}" (expected kafka or elasticsearch)`);
}

export function engineList(name: EngineName | 'all' | 'es' | EngineName[] | undefined): EngineName[] {
  if (name === undefined || name === 'all') return ENGINES;
  if (Array.isArray(name)) return name.map(canonicalName);
  return [canonicalName(name)];
}

export const engineVersion = (settings: EnginesSettings, name: EngineName) => (name === 'kafka' ? settings.kafkaVersion : settings.elasticsearchVersion);
export const engineLabel = (name: EngineName) => (name === 'kafka' ? 'Kafka' : 'Elasticsearch');
