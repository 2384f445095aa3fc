// One single-node engine's life in a home: its recorded state, its processes, whether it answers,
// starting it (reusing a healthy one, choosing ports, waiting until healthy, cleaning up a failed
// start) and stopping it. The API in single.ts takes the lock and calls these for each engine.
import { groupMembers, killGroups, markedProcesses, processMarks, signalGroup } from './processes.ts';
import { elasticsearchHealthy, kafkaHealthy } from './probes.ts';
import { ephemeralPort, portFree } from './ports.ts';
import type { EnginesSettings } from './settings.ts';
import { launchElasticsearch, launchKafka } from './single-launch.ts';
import { paths, type Context } from './single-layout.ts';
import { engineLabel as label, engineVersion, type EngineName, type EngineState, type EngineStatus, type Endpoints } from './single-types.ts';
import { errorMessage, readJson, sleep, tail, writeJson, type Log } from './util.ts';

const STOP_TIMEOUT_MS = 30_000;

/** The engine operations over these settings; `log` is the log of the API call in progress. */
export function createEngineControl(settings: EnginesSettings, log: Log) {
  const version = (name: EngineName) => engineVersion(settings, name);

  const engineProcesses = (ctx: Context, name: EngineName) => markedProcesses(processMarks(name, ctx.id));

  /** Process groups of an engine: those of its JVMs, and the one recorded at start while a member names our files. */
  function engineGroups(ctx: Context, name: EngineName): number[] {
    const groups = new Set(engineProcesses(ctx, name).map((p) => p.pgid));
    const state = readJson<EngineState>(paths(settings, ctx)[name].state);
    const ours = name === 'kafka' ? paths(settings, ctx).kafka.libs : paths(settings, ctx).elasticsearch.install;
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
      launch: (ctx: Context, state: EngineState, fresh: boolean) => launchKafka(settings, log, ctx, state, fresh),
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
      launch: (ctx: Context, state: EngineState, fresh: boolean) => launchElasticsearch(settings, log, ctx, state, fresh),
      healthy: (s: EngineState) => elasticsearchHealthy(s.port),
      endpoint: (s: EngineState) => `http://127.0.0.1:${s.port}`,
    },
  };

  function loadState(ctx: Context, name: EngineName): EngineState | undefined {
    const state = readJson<EngineState>(paths(settings, ctx)[name].state);
    if (!state || state.version !== version(name)) return undefined;
    return state;
  }

  async function engineStatus(ctx: Context, name: EngineName): Promise<EngineStatus & { state: EngineState | undefined }> {
    const state = loadState(ctx, name);
    const procs = engineProcesses(ctx, name);
    const running = procs.length > 0;
    const paused = running && procs.every((proc) => proc.state === 'T');
    const healthy = running && !paused && state ? await defs[name].healthy(state) : false;
    return { engine: name, version: version(name), running, paused, healthy, pid: procs[0]?.pid, endpoint: state ? defs[name].endpoint(state) : undefined, state, log: paths(settings, ctx)[name].out };
  }

  async function waitHealthy(ctx: Context, name: EngineName, state: EngineState, pgid: number | undefined): Promise<void> {
    const out = paths(settings, ctx)[name].out;
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
    writeJson(paths(settings, ctx)[name].state, { ...state, pgid, startedAt: new Date().toISOString() });
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

  return { defs, engineGroups, loadState, engineStatus, waitHealthy, startOne, stopOne, endpointsNow };
}
