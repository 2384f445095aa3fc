#!/usr/bin/env node
// The engines command line: `node scripts/engines/cli.ts <command> [--cluster]` (npm run engines:up / :down).
// The only module of scripts/engines that reads the environment; everything else takes settings.
//
//   up [--cluster]            start the engines (or reuse running ones); prints KAFKA_BROKERS= / ELASTICSEARCH_URL=
//   down [--cluster]          stop them
//   status [--cluster]        one line per engine or node
// Cluster only:
//   stop <kafka|es> <n> [--kill]   stop one node (Kafka by node id, ES 1-based), keeping its data
//   start <kafka|es> <n>           start it again with its data
// Without --cluster, every command of the single-node engines (scripts/engines.mjs) is available.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterDown, clusterEndpoints, clusterStatus, clusterUp, startClusterNode, stopClusterNode, type ClusterEngine } from './cluster.ts';
import { clusterOptions, defaultSettings, type EnginesSettings } from './settings.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The settings from the environment (ENGINES_HOME, ENGINES_CACHE, JDK homes, versions, cluster ports). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): EnginesSettings {
  const base = defaultSettings(REPO_ROOT, env.ENGINES_HOME ? { home: path.resolve(env.ENGINES_HOME) } : {});
  return {
    ...base,
    cache: env.ENGINES_CACHE ? path.resolve(env.ENGINES_CACHE) : base.cache,
    kafkaVersion: env.ENGINES_KAFKA_VERSION || base.kafkaVersion,
    elasticsearchVersion: env.ENGINES_ELASTICSEARCH_VERSION || base.elasticsearchVersion,
    java: { elasticsearchJavaHome: env.ES_JAVA_HOME, kafkaJavaHome: env.KAFKA_JAVA_HOME, javaHome: env.JAVA_HOME },
    engineUser: env.ENGINES_USER || base.engineUser,
    clusterBasePorts: {
      kafka: Number(env.ENGINES_CLUSTER_KAFKA_PORT || base.clusterBasePorts.kafka),
      elasticsearch: Number(env.ENGINES_CLUSTER_ELASTICSEARCH_PORT || base.clusterBasePorts.elasticsearch),
    },
  };
}

function engineArg(value: string | undefined): ClusterEngine {
  if (value === 'kafka') return 'kafka';
  if (value === 'elasticsearch' || value === 'es') return 'elasticsearch';
  throw new Error(`expected an engine (kafka or es), got ${value ?? 'nothing'}`);
}

function nodeArg(value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`expected a node number (1, 2, 3), got ${value ?? 'nothing'}`);
  return n;
}

async function clusterMain(command: string | undefined, args: string[], settings: EnginesSettings): Promise<number> {
  const o = clusterOptions(settings);
  switch (command) {
    case 'up': {
      const e = await clusterUp(o);
      process.stdout.write(`KAFKA_BROKERS=${e.kafkaBrokers}\nELASTICSEARCH_URL=${e.elasticsearchUrl}\n`);
      return 0;
    }
    case 'down':
      await clusterDown(o);
      return 0;
    case 'status': {
      const rows = clusterStatus(o);
      for (const r of rows) process.stdout.write(`${r.name}: ${r.running ? `running pid=${r.pid} rss=${r.rssMb}MB` : 'stopped'} ${r.endpoint} log=${r.log}\n`);
      const e = clusterEndpoints(o);
      if (e) process.stdout.write(`KAFKA_BROKERS=${e.kafkaBrokers}\nELASTICSEARCH_URL=${e.elasticsearchUrl}\n`);
      return rows.length > 0 && rows.every((r) => r.running) ? 0 : 3;
    }
    case 'stop':
      await stopClusterNode(o, engineArg(args[0]), nodeArg(args[1]), { force: args.includes('--kill') });
      return 0;
    case 'start':
      await startClusterNode(o, engineArg(args[0]), nodeArg(args[1]));
      return 0;
    default:
      process.stderr.write('usage: node scripts/engines/cli.ts up|down|status|stop <kafka|es> <n> [--kill]|start <kafka|es> <n> --cluster\n');
      return 2;
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const cluster = argv.includes('--cluster');
  const [command, ...rest] = argv.filter((a) => a !== '--cluster');
  if (cluster) return clusterMain(command, rest, settingsFromEnv(env));
  // The single-node engines (shared by the integration tests) are still scripts/engines.mjs.
  // @ts-expect-error scripts/engines.mjs is plain JavaScript without declarations
  const single = (await import('../engines.mjs')) as { main(argv: string[]): Promise<number> };
  return single.main(argv);
}

const invokedDirectly = (() => {
  try {
    return Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]!) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`[engines] error: ${error instanceof Error && error.stack ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
