// The shared engines: one Kafka (KRaft, combined broker+controller) and one Elasticsearch node as
// background JVMs on 127.0.0.1, and private sets of the same for fault tests. See docs/engines.md.
//
// createEngines(settings) answers the API: up(), down(), status(), endpoints(), stopEngine(),
// startEngine(), restartEngine(), pauseEngine(), resumeEngine(), fetchArtifacts(), and for
// isolated sets privateOptions(), destroy(), sweepPrivate(). Each takes options last
// ({ home, cache, ports, log }); without them it works on the shared set in settings.home.
// One engine's start, stop and health are in single-engine.ts; this module takes the home's lock
// around them and answers for both engines.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fetchElasticsearch, fetchKafka } from './artifacts.ts';
import { pidAlive, withLock } from './locks.ts';
import { killGroups, markedProcesses, signalGroup } from './processes.ts';
import type { EnginesSettings } from './settings.ts';
import { createEngineControl } from './single-engine.ts';
import { artifactOptions as artifactOptionsOf } from './single-launch.ts';
import { makeContext as contextOf, paths, type Context } from './single-layout.ts';
import { ENGINES, engineLabel as label, engineList, type EngineName, type EngineOptions, type EngineStatus, type Endpoints } from './single-types.ts';
import { errorMessage, type Log } from './util.ts';

export { canonicalName, ENGINES, type EngineName, type EngineOptions, type EngineStatus, type Endpoints } from './single-types.ts';

/** The single-node engines of these settings. */
export function createEngines(settings: EnginesSettings) {
  /** The log of the call in progress (each API call may bring its own, e.g. a private set's label). */
  const logStore = new AsyncLocalStorage<Log>();
  const log: Log = (line) => (logStore.getStore() ?? settings.log)(line);
  const { defs, engineGroups, loadState, engineStatus, waitHealthy, startOne, stopOne, endpointsNow } = createEngineControl(settings, log);

  const makeContext = (opts: EngineOptions = {}): Context => contextOf(settings, opts);

  const artifactOptions = (ctx: Context) => artifactOptionsOf(settings, ctx, log);

  const locked = <T>(ctx: Context, fn: () => Promise<T>): Promise<T> => logStore.run(ctx.log, () => withLock(paths(settings, ctx).lock, log, fn));

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
