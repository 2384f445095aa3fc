// Where a home keeps the single-node engines: which home, cache and ports a call works on (its
// context), and the folders and files of each engine in that home.
import crypto from 'node:crypto';
import path from 'node:path';
import { artifactPaths } from './artifacts.ts';
import type { EnginesSettings, SinglePorts } from './settings.ts';
import type { EngineOptions } from './single-types.ts';
import type { Log } from './util.ts';

export interface Context {
  home: string;
  cache: string;
  log: Log;
  ports: SinglePorts;
  /** Identifies this home's processes on their command line (-Dgitdex.engines.id=...). */
  id: string;
}

export function makeContext(settings: EnginesSettings, opts: EngineOptions = {}): Context {
  const home = path.resolve(opts.home ?? settings.home);
  // Every home shares the settings' cache unless told otherwise (artifacts are fetched once).
  const cache = path.resolve(opts.cache ?? settings.cache);
  return { home, cache, log: opts.log ?? settings.log, ports: { ...settings.ports, ...(opts.ports ?? {}) }, id: crypto.createHash('sha1').update(home).digest('hex').slice(0, 12) };
}

export function paths(settings: EnginesSettings, ctx: Context) {
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
