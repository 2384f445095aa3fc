// The shared engines: one Kafka (KRaft, combined broker+controller) and one Elasticsearch node as
// background JVMs on 127.0.0.1, and private sets of the same for fault tests. See docs/engines.md.
//
// createEngines(settings) answers the API: up(), down(), status(), endpoints(), stopEngine(),
// startEngine(), restartEngine(), pauseEngine(), resumeEngine(), fetchArtifacts(), and for
// isolated sets privateOptions(), destroy(), sweepPrivate(). Each takes options last
// ({ home, cache, ports, log }); without them it works on the shared set in settings.home.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { artifactPaths, fetchElasticsearch, fetchKafka, type ArtifactOptions } from './artifacts.ts';
import { elasticsearchSingleYml, KAFKA_LOG4J2, kafkaClusterId, kafkaJvmFlags, kafkaSingleProperties } from './config-files.ts';
import { elasticsearchJavaHome, kafkaJava } from './jdk.ts';
import { pidAlive, withLock } from './locks.ts';
import { elasticsearchHealthy, kafkaHealthy } from './probes.ts';
import { ephemeralPort, portFree } from './ports.ts';
import { groupMembers, killGroups, markedProcesses, processMarks, signalGroup, spawnDetached } from './processes.ts';
import type { EnginesSettings, SinglePorts } from './settings.ts';
import { asUser, engineUser } from './system-user.ts';
import { errorMessage, readJson, run, runChecked, sleep, tail, writeJson, type Log } from './util.ts';

export type EngineName = 'kafka' | 'elasticsearch';
export const ENGINES: EngineName[] = ['kafka', 'elasticsearch'];

/** Which set of engines a call is about: the shared one by default, a private one with privateOptions(). */
export interface EngineOptions {
  home?: string | undefined;
  cache?: string | undefined;
  ports?: Partial<SinglePorts> | undefined;
  log?: Log | undefined;
}

interface EngineState {
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

interface Context {
  home: string;
  cache: string;
  log: Log;
  ports: SinglePorts;
  /** Identifies this home's processes on their command line (-Dgitdex.engines.id=...). */
  id: string;
}

const STOP_TIMEOUT_MS = 30_000;

export function canonicalName(name: string): EngineName {
  const n = String(name || '').toLowerCase();
  if (n === 'kafka') return 'kafka';
  if (n === 'elasticsearch' || n === 'es') return 'elasticsearch';
  throw new Error(`unknown engine "${name}" (expected kafka or elasticsearch)`);
}

function engineList(name: EngineName | 'all' | 'es' | EngineName[] | undefined): EngineName[] {
  if (name === undefined || name === 'all') return ENGINES;
  if (Array.isArray(name)) return name.map(canonicalName);
  return [canonicalName(name)];
}

/** The single-node engines of these settings. */
export function createEngines(settings: EnginesSettings) {
  /** The log of the call in progress (each API call may bring its own, e.g. a private set's label). */
  const logStore = new AsyncLocalStorage<Log>();
  const log: Log = (line) => (logStore.getStore() ?? settings.log)(line);
  const version = (name: EngineName) => (name === 'kafka' ? settings.kafkaVersion : settings.elasticsearchVersion);
  const label = (name: EngineName) => (name === 'kafka' ? 'Kafka' : 'Elasticsearch');

  function makeContext(opts: EngineOptions = {}): Context {
    const home = path.resolve(opts.home ?? settings.home);
    // Every home shares the settings' cache unless told otherwise (artifacts are fetched once).
    const cache = path.resolve(opts.cache ?? settings.cache);
    return { home, cache, log: opts.log ?? settings.log, ports: { ...settings.ports, ...(opts.ports ?? {}) }, id: crypto.createHash('sha1').update(home).digest('hex').slice(0, 12) };
  }

  function paths(ctx: Context) {
    const art = artifactPaths(ctx.cache, settings.kafkaVersion, settings.elasticsearchVersion);
    const kafkaDir = path.join(ctx.home, 'kafka');
    const esDir = path.join(ctx.home, 'elasticsearch');
    return {
      lock: path.join(ctx.home, 'engines.lock'),
      kafka: {
        dir: kafkaDir,
        libs: art.kafkaLibs,
        config: path.join(kafkaDir, 'server.properties'),
        log4j: path.join(kafkaDir, 'log4j2.properties'),
        data: path.join(kafkaDir, 'data'),
        logs: path.join(kafkaDir, 'logs'),
        out: path.join(kafkaDir, 'logs', 'kafka.out'),
        state: path.join(kafkaDir, 'state.json'),
      },
      elasticsearch: {
        dir: esDir,
        install: art.elasticsearchInstall,
        config: path.join(esDir, 'config'),
        data: path.join(esDir, 'data'),
        logs: path.join(esDir, 'logs'),
        tmp: path.join(esDir, 'tmp'),
        out: path.join(esDir, 'logs', 'elasticsearch.out'),
        state: path.join(esDir, 'state.json'),
      },
    };
  }

  const artifactOptions = (ctx: Context): ArtifactOptions => ({
    cache: ctx.cache,
    pom: path.join(settings.repoRoot, 'scripts', 'engines', 'engines-pom.xml'),
    kafkaVersion: settings.kafkaVersion,
    elasticsearchVersion: settings.elasticsearchVersion,
    log,
    javaHomeForJar: () => elasticsearchJavaHome(settings.java, settings.elasticsearchVersion),
  });

  const locked = <T>(ctx: Context, fn: () => Promise<T>): Promise<T> => logStore.run(ctx.log, () => withLock(paths(ctx).lock, log, fn));

  const engineProcesses = (ctx: Context, name: EngineName) => markedProcesses(processMarks(name, ctx.id));

  /** Process groups of an engine: those of its JVMs, and the one recorded at start while a member names our files. */
  function engineGroups(ctx: Context, name: EngineName): number[] {
    const groups = new Set(engineProcesses(ctx, name).map((p) => p.pgid));
    const state = readJson<EngineState>(paths(ctx)[name].state);
    const ours = name === 'kafka' ? paths(ctx).kafka.libs : paths(ctx).elasticsearch.install;
    if (state?.pgid && groupMembers(state.pgid).some((p) => p.cmdline.includes(ours))) groups.add(state.pgid);
    return [...groups].filter((g) => g > 1 && g !== process.pid);
  }

  async function choosePort(preferred: number, taken: number[] = []): Promise<number> {
    if (preferred > 0 && !taken.includes(preferred) && (await portFree(preferred))) return preferred;
    for (;;) {
      const port = await ephemeralPort();
      if (!taken.includes(port)) {
        if (preferred > 0) log(`port ${preferred} is busy; using ${port}`);
        return port;
      }
    }
  }

  const defs = {
    kafka: {
      async newState(ctx: Context, taken: number[]): Promise<EngineState> {
        const port = await choosePort(ctx.ports.kafka, taken);
        const controllerPort = await choosePort(ctx.ports.kafkaController, [...taken, port]);
        return { version: settings.kafkaVersion, port, controllerPort };
      },
      ports: (s: EngineState) => [s.port, s.controllerPort ?? 0],
      launch: launchKafka,
      healthy: (s: EngineState) => kafkaHealthy([`127.0.0.1:${s.port}`]),
      endpoint: (s: EngineState) => `127.0.0.1:${s.port}`,
    },
    elasticsearch: {
      async newState(ctx: Context, taken: number[]): Promise<EngineState> {
        const port = await choosePort(ctx.ports.elasticsearch, taken);
        const transportPort = await choosePort(ctx.ports.elasticsearchTransport, [...taken, port]);
        return { version: settings.elasticsearchVersion, port, transportPort };
      },
      ports: (s: EngineState) => [s.port, s.transportPort ?? 0],
      launch: launchElasticsearch,
      healthy: (s: EngineState) => elasticsearchHealthy(s.port),
      endpoint: (s: EngineState) => `http://127.0.0.1:${s.port}`,
    },
  };

  async function launchKafka(ctx: Context, state: EngineState, fresh: boolean): Promise<number> {
    const p = paths(ctx).kafka;
    await fetchKafka(artifactOptions(ctx));
    const java = kafkaJava(settings.java, settings.kafkaVersion);
    fs.mkdirSync(p.logs, { recursive: true });
    fs.writeFileSync(p.config, kafkaSingleProperties(state.port, state.controllerPort ?? 0, p.data));
    fs.writeFileSync(p.log4j, KAFKA_LOG4J2);
    const flags = kafkaJvmFlags(512, p.log4j, p.logs, false);
    const classpath = path.join(p.libs, '*');
    if (fresh || !fs.existsSync(path.join(p.data, 'meta.properties'))) {
      fs.rmSync(p.data, { recursive: true, force: true });
      fs.mkdirSync(p.data, { recursive: true });
      const clusterId = kafkaClusterId();
      runChecked(java, [...flags.filter((f) => !f.startsWith('-Xm')), '-Xmx256m', '-cp', classpath, 'kafka.tools.StorageTool', 'format', '--standalone', '-t', clusterId, '-c', p.config]);
      state.clusterId = clusterId;
    }
    fs.appendFileSync(p.out, `\n==== ${new Date().toISOString()} starting Kafka ${settings.kafkaVersion} on 127.0.0.1:${state.port} ====\n`);
    return spawnDetached([java, ...flags, ...processMarks('kafka', ctx.id), '-cp', classpath, 'kafka.Kafka', p.config], { cwd: p.dir, outFile: p.out }, log);
  }

  async function launchElasticsearch(ctx: Context, state: EngineState, fresh: boolean): Promise<number> {
    const p = paths(ctx).elasticsearch;
    await fetchElasticsearch(artifactOptions(ctx));
    const javaHome = elasticsearchJavaHome(settings.java, settings.elasticsearchVersion);
    const user = engineUser(settings.engineUser, log);
    if (fresh) fs.rmSync(p.data, { recursive: true, force: true });
    for (const dir of [p.data, p.logs, p.tmp]) fs.mkdirSync(dir, { recursive: true });
    // A fresh copy of the distribution's config with our elasticsearch.yml on top.
    fs.rmSync(p.config, { recursive: true, force: true });
    fs.cpSync(path.join(p.install, 'config'), p.config, { recursive: true });
    fs.writeFileSync(path.join(p.config, 'elasticsearch.yml'), elasticsearchSingleYml(state.port, state.transportPort ?? 0, p.data, p.logs));
    if (user) {
      runChecked('chown', ['-R', `${user.uid}:${user.gid}`, p.dir, p.install]);
      const probe = asUser(user, ['test', '-r', path.join(p.install, 'lib'), '-a', '-w', p.data]);
      if (run(probe[0]!, probe.slice(1)).status !== 0) {
        throw new Error(`user ${user.name} cannot reach ${p.dir} (a parent folder of ENGINES_HOME=${ctx.home} is not searchable by other users); set ENGINES_HOME to a folder under /tmp or /var/tmp`);
      }
    }
    fs.appendFileSync(p.out, `\n==== ${new Date().toISOString()} starting Elasticsearch ${settings.elasticsearchVersion} on 127.0.0.1:${state.port} ====\n`);
    const env = {
      PATH: process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      LANG: 'C.UTF-8',
      HOME: p.dir,
      ES_JAVA_HOME: javaHome,
      ES_PATH_CONF: p.config,
      ES_TMPDIR: p.tmp,
      ES_JAVA_OPTS: ['-Xms512m', '-Xmx512m', ...processMarks('elasticsearch', ctx.id)].join(' '),
    };
    return spawnDetached(asUser(user, [path.join(p.install, 'bin', 'elasticsearch')]), { cwd: p.dir, outFile: p.out, env, outOwner: user }, log);
  }

  function loadState(ctx: Context, name: EngineName): EngineState | undefined {
    const state = readJson<EngineState>(paths(ctx)[name].state);
    if (!state || state.version !== version(name)) return undefined;
    return state;
  }

  async function engineStatus(ctx: Context, name: EngineName): Promise<EngineStatus & { state: EngineState | undefined }> {
    const state = loadState(ctx, name);
    const procs = engineProcesses(ctx, name);
    const running = procs.length > 0;
    const paused = running && procs.every((proc) => proc.state === 'T');
    const healthy = running && !paused && state ? await defs[name].healthy(state) : false;
    return { engine: name, version: version(name), running, paused, healthy, pid: procs[0]?.pid, endpoint: state ? defs[name].endpoint(state) : undefined, state, log: paths(ctx)[name].out };
  }

  async function waitHealthy(ctx: Context, name: EngineName, state: EngineState, pgid: number | undefined): Promise<void> {
    const out = paths(ctx)[name].out;
    const timeout = settings.startTimeoutMs[name];
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      if (await defs[name].healthy(state)) return;
      if (pgid && groupMembers(pgid).length === 0) throw new Error(`${label(name)} exited during start-up; last lines of ${out}:\n${tail(out)}`);
      await sleep(250);
    }
    throw new Error(`${label(name)} not healthy after ${timeout / 1000}s; last lines of ${out}:\n${tail(out)}`);
  }

  /** Start one engine. fresh: wipe its data and pick ports anew; otherwise keep both. Resolves true when it was started. */
  async function startOne(ctx: Context, name: EngineName, { fresh, taken = [] }: { fresh: boolean; taken?: number[] }): Promise<boolean> {
    const current = await engineStatus(ctx, name);
    if (current.running && current.state) {
      if (current.paused) for (const g of engineGroups(ctx, name)) signalGroup(g, 'SIGCONT');
      if (!current.healthy) {
        log(`${label(name)} is running but not answering yet; waiting`);
        try {
          await waitHealthy(ctx, name, current.state, undefined);
        } catch (error) {
          log(`${label(name)} did not become healthy (${errorMessage(error).split('\n')[0]}); restarting it`);
          await killGroups(label(name), engineGroups(ctx, name), log, { stopTimeoutMs: STOP_TIMEOUT_MS });
          return startOne(ctx, name, { fresh, taken });
        }
      }
      log(`${label(name)} ${version(name)} already running at ${defs[name].endpoint(current.state)} (pid ${current.pid}); reusing it`);
      return false;
    }
    if (current.running) await killGroups(label(name), engineGroups(ctx, name), log); // no usable state: start over
    let state = loadState(ctx, name);
    if (fresh || !state) {
      state = await defs[name].newState(ctx, taken);
      fresh = true;
    } else {
      for (const port of defs[name].ports(state)) {
        if (!(await portFree(port))) throw new Error(`${label(name)} cannot restart: port ${port} is taken by another process`);
      }
    }
    const started = Date.now();
    log(`starting ${label(name)} ${version(name)} on ${defs[name].endpoint(state)}${fresh ? ' (fresh data)' : ' (keeping data)'}`);
    const pgid = await defs[name].launch(ctx, state, fresh);
    writeJson(paths(ctx)[name].state, { ...state, pgid, startedAt: new Date().toISOString() });
    try {
      await waitHealthy(ctx, name, state, pgid);
    } catch (error) {
      const groups = [pgid, ...engineGroups(ctx, name)].filter((g, i, a) => a.indexOf(g) === i);
      // The start's own error is what the caller needs; a failed clean-up is told, not thrown over it.
      await killGroups(label(name), groups, log, { force: true }).catch((killError: unknown) => log(`${label(name)}: stopping the failed start failed too: ${errorMessage(killError)}`));
      throw error;
    }
    log(`${label(name)} healthy after ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return true;
  }

  async function stopOne(ctx: Context, name: EngineName, { force = false } = {}): Promise<boolean> {
    const groups = engineGroups(ctx, name);
    if (groups.length === 0) {
      log(`${label(name)} is not running`);
      return false;
    }
    const started = Date.now();
    log(`stopping ${label(name)}${force ? ' (SIGKILL)' : ''}`);
    await killGroups(label(name), groups, log, { force, stopTimeoutMs: STOP_TIMEOUT_MS });
    log(`${label(name)} stopped after ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return true;
  }

  function endpointsNow(ctx: Context): Endpoints {
    const k = loadState(ctx, 'kafka');
    const e = loadState(ctx, 'elasticsearch');
    return { kafkaBrokers: k ? defs.kafka.endpoint(k) : undefined, elasticsearchUrl: e ? defs.elasticsearch.endpoint(e) : undefined };
  }

  /** Private sets live in <home>/private/<label>-<pid>-<random>: stop and delete those whose creator is gone. */
  async function sweepPrivate(opts: EngineOptions = {}): Promise<void> {
    const ctx = makeContext(opts);
    await logStore.run(ctx.log, async () => {
      const dir = path.join(ctx.home, 'private');
      let entries: string[];
      try {
        entries = fs.readdirSync(dir);
      } catch {
        return;
      }
      for (const entry of entries) {
        const owner = Number(/-(\d+)-[0-9a-f]{6}$/.exec(entry)?.[1] ?? 0);
        if (owner && pidAlive(owner)) continue;
        log(`removing orphaned private engines ${entry}`);
        await destroy({ home: path.join(dir, entry), cache: ctx.cache, log: opts.log }).catch((error: unknown) => log(`could not remove ${entry}: ${errorMessage(error)}`));
      }
    });
  }

  /** down(), then delete the home folder (for private sets; never the shared cache). */
  async function destroy(opts: EngineOptions = {}): Promise<void> {
    const ctx = makeContext(opts);
    await locked(ctx, async () => {
      for (const name of ENGINES) await stopOne(ctx, name);
    });
    // A private cluster's JVMs live in the same private folder (test/harness/cluster.ts).
    await killGroups(
      'private cluster',
      markedProcesses([])
        .filter((p) => p.cmdline.includes(`-Dgitdex.engine=cluster-`) && p.cmdline.includes(ctx.home))
        .map((p) => p.pgid),
      log,
    );
    if (path.resolve(ctx.cache).startsWith(path.resolve(ctx.home) + path.sep)) throw new Error(`destroy: the cache ${ctx.cache} is inside ${ctx.home}; refusing to delete it`);
    fs.rmSync(ctx.home, { recursive: true, force: true });
  }

  return {
    KAFKA_VERSION: settings.kafkaVersion,
    ELASTICSEARCH_VERSION: settings.elasticsearchVersion,

    /** The folder everything is kept in by default. */
    enginesHome: () => path.resolve(settings.home),

    /** Options for a private set of engines (own home under <home>/private, any free ports, shared cache). */
    privateOptions(labelText = 'private'): EngineOptions {
      const safe = String(labelText)
        .replace(/[^A-Za-z0-9_.-]/g, '_')
        .slice(0, 40);
      return {
        home: path.join(settings.home, 'private', `${safe}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`),
        cache: settings.cache,
        ports: { kafka: 0, kafkaController: 0, elasticsearch: 0, elasticsearchTransport: 0 },
      };
    },

    /** Start the engines (both, or opts.engines), or reuse healthy running ones; a cold start wipes the data. */
    async up(opts: EngineOptions & { engines?: EngineName[] } = {}): Promise<Endpoints & { started: Record<EngineName, boolean> }> {
      const ctx = makeContext(opts);
      const wanted = engineList(opts.engines);
      if (!opts.home) await sweepPrivate(opts);
      return locked(ctx, async () => {
        // Downloads one after the other (one local Maven repository), then the JVMs at once.
        if (wanted.includes('kafka')) await fetchKafka(artifactOptions(ctx));
        if (wanted.includes('elasticsearch')) await fetchElasticsearch(artifactOptions(ctx));
        const kafkaState = loadState(ctx, 'kafka');
        const esState = loadState(ctx, 'elasticsearch');
        const [kafka, elasticsearch] = await Promise.all([
          wanted.includes('kafka') ? startOne(ctx, 'kafka', { fresh: true, taken: esState ? defs.elasticsearch.ports(esState) : [] }) : false,
          wanted.includes('elasticsearch') ? startOne(ctx, 'elasticsearch', { fresh: true, taken: kafkaState ? defs.kafka.ports(kafkaState) : [] }) : false,
        ]);
        return { ...endpointsNow(ctx), started: { kafka, elasticsearch } };
      });
    },

    /** Stop both engines and wait until none of their processes is left (and sweep orphaned private sets). */
    async down(opts: EngineOptions = {}): Promise<void> {
      const ctx = makeContext(opts);
      await locked(ctx, async () => {
        for (const name of ENGINES) await stopOne(ctx, name);
      });
      await sweepPrivate(opts);
    },

    sweepPrivate,
    destroy,

    /** Stop one engine, keeping its data and ports (force: SIGKILL at once, a crash). */
    async stopEngine(name: EngineName | 'es' | 'all', opts: EngineOptions & { force?: boolean } = {}): Promise<void> {
      const ctx = makeContext(opts);
      await locked(ctx, async () => {
        for (const n of engineList(name)) await stopOne(ctx, n, { force: opts.force ?? false });
      });
    },

    /** Start a stopped engine with its data on its previous ports (or fresh if it never ran). */
    async startEngine(name: EngineName | 'es' | 'all', opts: EngineOptions = {}): Promise<Endpoints> {
      const ctx = makeContext(opts);
      return locked(ctx, async () => {
        for (const n of engineList(name)) await startOne(ctx, n, { fresh: false });
        return endpointsNow(ctx);
      });
    },

    /** stopEngine + startEngine (force: SIGKILL first, a crash-restart). */
    async restartEngine(name: EngineName | 'es' | 'all', opts: EngineOptions & { force?: boolean } = {}): Promise<Endpoints> {
      const ctx = makeContext(opts);
      return locked(ctx, async () => {
        for (const n of engineList(name)) {
          await stopOne(ctx, n, { force: opts.force ?? false });
          await startOne(ctx, n, { fresh: false });
        }
        return endpointsNow(ctx);
      });
    },

    /** SIGSTOP the engine: its ports stay open but nothing answers (a hung engine). */
    async pauseEngine(name: EngineName | 'es' | 'all', opts: EngineOptions = {}): Promise<void> {
      const ctx = makeContext(opts);
      await locked(ctx, () => {
        for (const n of engineList(name)) {
          const groups = engineGroups(ctx, n);
          if (groups.length === 0) throw new Error(`${label(n)} is not running`);
          for (const g of groups) signalGroup(g, 'SIGSTOP');
          log(`${label(n)} paused`);
        }
        return Promise.resolve();
      });
    },

    /** SIGCONT a paused engine and wait until it answers again. */
    async resumeEngine(name: EngineName | 'es' | 'all', opts: EngineOptions = {}): Promise<void> {
      const ctx = makeContext(opts);
      await locked(ctx, async () => {
        for (const n of engineList(name)) {
          const groups = engineGroups(ctx, n);
          if (groups.length === 0) throw new Error(`${label(n)} is not running`);
          for (const g of groups) signalGroup(g, 'SIGCONT');
          const state = loadState(ctx, n);
          if (state) await waitHealthy(ctx, n, state, undefined);
          log(`${label(n)} resumed`);
        }
      });
    },

    /** The state of both engines (no lock: it only looks). */
    async status(opts: EngineOptions = {}): Promise<Record<EngineName, EngineStatus>> {
      const ctx = makeContext(opts);
      const strip = async (name: EngineName): Promise<EngineStatus> => {
        const { state: _state, ...rest } = await engineStatus(ctx, name);
        return rest;
      };
      return { kafka: await strip('kafka'), elasticsearch: await strip('elasticsearch') };
    },

    /** The endpoints recorded for a home (whether or not the engines run now). */
    endpoints: (opts: EngineOptions = {}): Endpoints => endpointsNow(makeContext(opts)),

    /** Download and unpack both engines into the cache (no-op when cached). */
    async fetchArtifacts(opts: EngineOptions = {}): Promise<void> {
      const ctx = makeContext(opts);
      await locked(ctx, async () => {
        await fetchKafka(artifactOptions(ctx));
        await fetchElasticsearch(artifactOptions(ctx));
      });
    },
  };
}

export type Engines = ReturnType<typeof createEngines>;
