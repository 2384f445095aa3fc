// What the integration tests use to reach the real engines (Kafka, Elasticsearch).
//
// The jest global setup (test/harness/global-setup.ts) finds or starts the engines and puts
// their endpoints in process.env, which every test worker inherits:
//   KAFKA_BROKERS            127.0.0.1:19092 (comma-separated host:port list)
//   ELASTICSEARCH_URL        http://127.0.0.1:19200
//   GITDEX_ENGINES_PROVIDER  env | testcontainers | local   (where they came from)
//
// Fault injection: privateEngines() starts a set of engines of the test's own (isolated from the
// other test files that run at the same time), with stop/start/restart/pause/withDown. The
// functions stopEngine()... below act on the SHARED engines instead (only when those are the
// local JVM engines of scripts/engines) and disturb every test running at that moment.
// See docs/engines.md.
import path from 'node:path';
import { settingsFromEnv } from '../../scripts/engines/settings.ts';
import { createEngines, type EngineOptions, type Engines } from '../../scripts/engines/single.ts';

export interface EngineEndpoints {
  /** Comma-separated host:port list for kafkajs `brokers` (see kafkaBrokerList()). */
  kafkaBrokers: string;
  /** Base URL for @elastic/elasticsearch `node`. */
  elasticsearchUrl: string;
}

export type EngineProvider = 'env' | 'testcontainers' | 'local';
export type EngineName = 'kafka' | 'elasticsearch';

/** The engine endpoints the global setup exported. Throws when the setup did not run. */
export function engineEndpoints(): EngineEndpoints {
  const kafkaBrokers = process.env.KAFKA_BROKERS;
  const elasticsearchUrl = process.env.ELASTICSEARCH_URL;
  if (!kafkaBrokers || !elasticsearchUrl) {
    throw new Error('KAFKA_BROKERS / ELASTICSEARCH_URL are not set: run integration tests through jest ' + '(`npx jest --selectProjects integration`), whose global setup provides the engines');
  }
  return { kafkaBrokers, elasticsearchUrl };
}

/** KAFKA_BROKERS as the array kafkajs wants. */
export function kafkaBrokerList(): string[] {
  return engineEndpoints()
    .kafkaBrokers.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}

/** Where the engines came from (set by the global setup). */
export function engineProvider(): EngineProvider {
  const provider = process.env.GITDEX_ENGINES_PROVIDER;
  if (provider === 'env' || provider === 'testcontainers' || provider === 'local') return provider;
  return 'env';
}

/** A random name for a test's topic, group, index...: lower case, safe for Kafka and Elasticsearch. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`.toLowerCase();
}

// ------------------------------------------------------------------------------------------
// scripts/engines as a library
// ------------------------------------------------------------------------------------------

export type { EngineOptions, EngineStatus } from '../../scripts/engines/single.ts';

/** scripts/engines as a library: the single-node engines of the settings the environment asks for. */
export type EnginesLib = Engines;

const REPO_ROOT = path.resolve(__dirname, '../..');

/** The engines module (scripts/engines/single.ts), configured from this process's environment as the CLI is. */
export async function loadEnginesLib(): Promise<EnginesLib> {
  return createEngines(settingsFromEnv(REPO_ROOT, process.env));
}

/**
 * Throws unless the engines in use are scripts/engines' local JVMs (started by the setup, or
 * given through the env and found running there), so that stopping one of them is possible.
 */
async function controllableEngines(): Promise<EnginesLib> {
  const provider = engineProvider();
  if (provider === 'testcontainers') {
    throw new Error('fault injection needs the local JVM engines; the engines are Docker containers here ' + '(run with GITDEX_ENGINES_PROVIDER=local to use scripts/engines)');
  }
  const lib = await loadEnginesLib();
  if (provider === 'env') {
    const local = lib.endpoints();
    const given = engineEndpoints();
    if (local.kafkaBrokers !== given.kafkaBrokers || local.elasticsearchUrl !== given.elasticsearchUrl) {
      throw new Error(
        `fault injection needs the local JVM engines, but KAFKA_BROKERS=${given.kafkaBrokers} / ` +
          `ELASTICSEARCH_URL=${given.elasticsearchUrl} are not the ones scripts/engines runs ` +
          `(${local.kafkaBrokers} / ${local.elasticsearchUrl})`,
      );
    }
  }
  return lib;
}

/** Stop one engine (clean shutdown, or SIGKILL with force: a crash). Its data and port are kept. */
export async function stopEngine(name: EngineName, opts: { force?: boolean } = {}): Promise<void> {
  await (await controllableEngines()).stopEngine(name, opts);
}

/** Start a stopped engine again, on the same port with its data; resolves once it is healthy. */
export async function startEngine(name: EngineName): Promise<void> {
  await (await controllableEngines()).startEngine(name);
}

/** Stop + start; resolves once the engine is healthy again. */
export async function restartEngine(name: EngineName, opts: { force?: boolean } = {}): Promise<void> {
  await (await controllableEngines()).restartEngine(name, opts);
}

/** SIGSTOP: the port stays open but nothing answers (requests hang instead of failing fast). */
export async function pauseEngine(name: EngineName): Promise<void> {
  await (await controllableEngines()).pauseEngine(name);
}

/** SIGCONT a paused engine; resolves once it answers again. */
export async function resumeEngine(name: EngineName): Promise<void> {
  await (await controllableEngines()).resumeEngine(name);
}

/**
 * Make one engine unavailable for `ms` milliseconds while `during` runs (if given), then bring it
 * back and wait until it is healthy. E.g. `await withEngineDown('elasticsearch', 30_000)`.
 */
export async function withEngineDown<T>(name: EngineName, ms: number, during?: () => Promise<T>, opts: { force?: boolean } = {}): Promise<T | undefined> {
  const lib = await controllableEngines();
  await lib.stopEngine(name, opts);
  const began = Date.now();
  try {
    const result = during ? await during() : undefined;
    const left = ms - (Date.now() - began);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    return result;
  } finally {
    await lib.startEngine(name);
  }
}

// ------------------------------------------------------------------------------------------
// Private engines: a set of its own for a fault-injection test
// ------------------------------------------------------------------------------------------

/** A private Kafka and/or Elasticsearch of one test file, with its own ports, data and JVMs. */
export interface PrivateEngines {
  /** Set when Kafka was asked for. */
  kafkaBrokers: string;
  /** Set when Elasticsearch was asked for. */
  elasticsearchUrl: string;
  stop(name: EngineName, opts?: { force?: boolean }): Promise<void>;
  start(name: EngineName): Promise<void>;
  restart(name: EngineName, opts?: { force?: boolean }): Promise<void>;
  pause(name: EngineName): Promise<void>;
  resume(name: EngineName): Promise<void>;
  /** Unavailable for `ms` milliseconds (while `during` runs, if given), then back and healthy. */
  withDown<T>(name: EngineName, ms: number, during?: () => Promise<T>, opts?: { force?: boolean }): Promise<T | undefined>;
  /** Stop the JVMs and delete the private folder. Call it in afterAll. */
  close(): Promise<void>;
}

/**
 * Start a private set of engines for tests that stop, crash or pause them, so that other test
 * files running at the same time on the shared engines are not disturbed. Uses the local JVM
 * engines (scripts/engines) whatever the shared engines are; costs a JVM start per engine
 * (Kafka ~5-10 s, Elasticsearch ~15-25 s on 2 cores) and ~0.6-1 GB of memory each.
 */
export async function privateEngines(engines: EngineName[], label = 'test'): Promise<PrivateEngines> {
  const lib = await loadEnginesLib();
  const opts: EngineOptions = {
    ...lib.privateOptions(label),
    log: (line) => process.stderr.write(`[engines:${label}] ${line}\n`),
  };
  try {
    const result = await lib.up({ ...opts, engines });
    const handle: PrivateEngines = {
      kafkaBrokers: result.kafkaBrokers ?? '',
      elasticsearchUrl: result.elasticsearchUrl ?? '',
      stop: (name, o = {}) => lib.stopEngine(name, { ...opts, ...o }),
      start: async (name) => void (await lib.startEngine(name, opts)),
      restart: async (name, o = {}) => void (await lib.restartEngine(name, { ...opts, ...o })),
      pause: (name) => lib.pauseEngine(name, opts),
      resume: (name) => lib.resumeEngine(name, opts),
      withDown: async (name, ms, during, o = {}) => {
        await lib.stopEngine(name, { ...opts, ...o });
        const began = Date.now();
        try {
          const result = during ? await during() : undefined;
          const left = ms - (Date.now() - began);
          if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
          return result;
        } finally {
          await lib.startEngine(name, opts);
        }
      },
      close: () => lib.destroy(opts),
    };
    return handle;
  } catch (err) {
    await lib.destroy(opts).catch(() => undefined);
    throw err;
  }
}
