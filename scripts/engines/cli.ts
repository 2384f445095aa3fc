#!/usr/bin/env node
// The engines command line (npm run engines:up / engines:down). The only module of scripts/engines
// that reads the environment (settingsFromEnv(process.env)); everything else takes settings.
//
//   node scripts/engines/cli.ts up                 start Kafka and Elasticsearch (or reuse running ones); prints
//                                                  KAFKA_BROKERS=... and ELASTICSEARCH_URL=... on stdout
//   node scripts/engines/cli.ts down               stop both, leave no process behind
//   node scripts/engines/cli.ts status             one line per engine; exit 0 when both are healthy
//   node scripts/engines/cli.ts stop  <engine>     stop one engine, keep its data (--kill: SIGKILL, a crash)
//   node scripts/engines/cli.ts start <engine>     start one engine again on the same port, with its data
//   node scripts/engines/cli.ts restart <engine>   stop + start (--kill for a crash-restart)
//   node scripts/engines/cli.ts pause|resume <engine>  SIGSTOP/SIGCONT: the port stays open but nothing answers
//   node scripts/engines/cli.ts fetch              only download/unpack the artifacts into the cache
//
// With --cluster, the same for three Kafka brokers and three Elasticsearch nodes (cluster.ts):
//   up|down|status --cluster;  stop <kafka|es> <n> [--kill] --cluster;  start <kafka|es> <n> --cluster
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterDown, clusterEndpoints, clusterStatus, clusterUp, startClusterNode, stopClusterNode, type ClusterEngine } from './cluster.ts';
import { clusterOptions, settingsFromEnv, type EnginesSettings } from './settings.ts';
import { createEngines, ENGINES, type EngineName } from './single.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

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
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

const USAGE = `usage: node scripts/engines/cli.ts <command> [engine] [--cluster]
  up                        start Kafka and Elasticsearch (or reuse running ones); prints the endpoints
  down                      stop both
  status                    show both; exit 0 when both are healthy, 3 otherwise
  stop <engine> [--kill]    stop one engine, keep its data (--kill: SIGKILL, like a crash)
  start <engine>            start one engine again on its previous port with its data
  restart <engine> [--kill] stop + start
  pause <engine>            SIGSTOP (port open, no answers); resume <engine> undoes it
  fetch                     download the artifacts into the cache only
engine: kafka | elasticsearch (es) | all
--cluster: three Kafka brokers and three Elasticsearch nodes (up, down, status, stop <engine> <n>, start <engine> <n>)`;

async function singleMain(command: string | undefined, rest: string[], settings: EnginesSettings): Promise<number> {
  const engines = createEngines(settings);
  const force = rest.includes('--kill');
  const target = (rest.find((a) => !a.startsWith('--')) ?? 'all') as EngineName | 'es' | 'all';
  switch (command) {
    case 'up': {
      const e = await engines.up();
      process.stdout.write(`KAFKA_BROKERS=${e.kafkaBrokers}\nELASTICSEARCH_URL=${e.elasticsearchUrl}\n`);
      return 0;
    }
    case 'down':
      await engines.down();
      return 0;
    case 'status': {
      const s = await engines.status();
      let ok = true;
      for (const name of ENGINES) {
        const e = s[name];
        ok &&= e.healthy;
        const what = e.running ? (e.paused ? 'paused' : e.healthy ? 'healthy' : 'running, not answering') : 'stopped';
        process.stdout.write(`${name} ${e.version}: ${what}${e.pid ? ` pid=${e.pid}` : ''}${e.endpoint ? ` ${e.endpoint}` : ''} log=${e.log}\n`);
      }
      return ok ? 0 : 3;
    }
    case 'start':
      await engines.startEngine(target);
      return 0;
    case 'stop':
      await engines.stopEngine(target, { force });
      return 0;
    case 'restart':
      await engines.restartEngine(target, { force });
      return 0;
    case 'pause':
      await engines.pauseEngine(target);
      return 0;
    case 'resume':
      await engines.resumeEngine(target);
      return 0;
    case 'fetch':
      await engines.fetchArtifacts();
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\nENGINES_HOME=${settings.home}\n`);
      return 0;
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const cluster = argv.includes('--cluster');
  const [command, ...rest] = argv.filter((a) => a !== '--cluster');
  const settings = settingsFromEnv(REPO_ROOT, env);
  return cluster ? clusterMain(command, rest, settings) : singleMain(command, rest, settings);
}

const invokedDirectly = (() => {
  try {
    return Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]!) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  // kafkajs 2.2.4's request queue sets a negative timer under Node 24 (harmless: it means "now");
  // its warning would fill the terminal on every probe. Every other warning is still printed.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name !== 'TimeoutNegativeWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
  });
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`[engines] error: ${error instanceof Error && error.stack ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
