// npm run bench:scaling — the push-storm scaling measurement and the per-push costs of the
// capacity model (docs/scaling.md). On a cluster: a private 3-broker Kafka and 3-node
// Elasticsearch (or the ones KAFKA_BROKERS / ELASTICSEARCH_URL list), the GitHub stand-in with
// many repositories, and for each indexer count a deployment of 2 webhooks, N indexers and
// 2 readers as the cluster fault suite runs them. Results: test-artifacts/scaling/results.{md,json}.
//
//   npm run bench:scaling -- [--repos 200] [--rate 20] [--seconds 60] [--indexers 1,2,3]
//                            [--cost-files 1,10,100] [--cost-pushes 10] [--drain 180] [--quick]
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ElasticsearchIndexStore } from '@gitdex/elasticsearch';
import { fixtureGit, makeTempRoot, removeTempRoot } from '../../test/github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../../test/github-standin/server';
import { uniqueName } from '../../test/harness/engines';
import { FAULT_SECRET } from '../../test/support/role-env';
import { measureCosts } from './costs';
import { acquireClusterEngines, type ScalingEngines } from './engines';
import { indexSizes } from './es-stats';
import { Fleet } from './fleet';
import { FreshnessTracker } from './freshness';
import { topicBytes } from './kafka-bytes';
import type { MeterContext } from './meter';
import { capacity } from './model';
import { MAIN, pool, createCostRepos, createStormRepos, firstPush, type ScaleRepo } from './repos';
import { writeScaling, type ScalingResults } from './report';
import { prepareStorm, runStorm } from './storm';

const OUT_DIR = join(__dirname, '../../test-artifacts/scaling');
const log = (line: string) => process.stdout.write(`[scaling ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const list = (text: string) =>
  text
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((x) => Number.isInteger(x) && x > 0);

function options() {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      indexers: { type: 'string' },
      'cost-files': { type: 'string' },
      'cost-pushes': { type: 'string' },
      drain: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const o = {
    repos: Number(values.repos ?? (quick ? 40 : 200)),
    rate: Number(values.rate ?? (quick ? 10 : 20)),
    seconds: Number(values.seconds ?? (quick ? 15 : 60)),
    indexers: list(values.indexers ?? (quick ? '1,2' : '1,2,3')),
    costFiles: list(values['cost-files'] ?? '1,10,100'),
    costPushes: Number(values['cost-pushes'] ?? (quick ? 3 : 10)),
    drainMs: Number(values.drain ?? 180) * 1000,
  };
  for (const [name, value] of Object.entries({ repos: o.repos, rate: o.rate, seconds: o.seconds, 'cost-pushes': o.costPushes, drain: o.drainMs })) {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  }
  if (o.indexers.length === 0) throw new Error('--indexers must list positive integers, e.g. 1,2,3');
  return o;
}

function cpuModel(): string {
  return os.cpus()[0]?.model.trim() ?? 'unknown';
}

/** Delivers every repository's first push and waits until each is readable at its head. */
async function firstIndex(standIn: GitHubStandIn, index: ElasticsearchIndexStore, repos: ScaleRepo[]): Promise<number> {
  const began = Date.now();
  const heads = new Map<number, string>();
  await pool(repos, 4, async (repo) => {
    const first = await firstPush(standIn, repo);
    heads.set(repo.id, first.sha);
    if (first.status !== 202) throw new Error(`the first push of ${repo.fullName} got ${first.status ?? 'no connection'}`);
  });
  const deadline = Date.now() + 480_000;
  let ready = 0;
  while (Date.now() < deadline) {
    const states = await index.listRefStates().catch(() => []);
    ready = states.filter((s) => s.ref === MAIN && s.status === 'ready' && s.commitSha === heads.get(s.repositoryId)).length;
    if (ready >= repos.length) return (Date.now() - began) / 1000;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the first index did not complete within 8 min (${ready}/${repos.length} ready)`);
}

/** Files and bytes at the default branch of the repositories (what the first index holds). */
async function contentOf(repos: ScaleRepo[]): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const repo of repos) {
    const text = (await fixtureGit(repo.dir, ['ls-tree', '-r', '-l', MAIN])).toString();
    for (const line of text.split('\n').filter(Boolean)) {
      files += 1;
      bytes += Number(line.split(/\s+/)[3]) || 0;
    }
  }
  return { files, bytes };
}

async function main(): Promise<void> {
  const o = options();
  const began = Date.now();
  const results: ScalingResults = {
    startedAt: new Date().toISOString(),
    durationSeconds: 0,
    machine: { cores: os.cpus().length, cpuModel: cpuModel(), memGb: Math.round(os.totalmem() / 1e9), node: process.version, loadBefore: os.loadavg(), loadAfter: [] },
    engines: '',
    repositories: o.repos,
    options: { rate: o.rate, seconds: o.seconds, indexers: o.indexers, costFiles: o.costFiles, costPushes: o.costPushes },
    firstIndex: null,
    storms: [],
    stormFailures: [],
    costs: [],
    kafkaBytesPerEvent: null,
    capacity: null,
    notMeasured: [],
  };
  log(`${results.machine.cores} cores (${results.machine.cpuModel}), load ${results.machine.loadBefore.map((l) => l.toFixed(2)).join('/')}`);

  let engines: ScalingEngines | undefined;
  let standIn: GitHubStandIn | undefined;
  let index: ElasticsearchIndexStore | undefined;
  let fleet: Fleet | undefined;
  let root = '';
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await fleet?.close().catch(() => undefined);
      await standIn?.close().catch(() => undefined);
      await index?.close().catch(() => undefined);
      if (root) await removeTempRoot(root).catch(() => undefined);
      if (engines) {
        log('stopping the cluster');
        await engines.release().catch((error: unknown) => log(`stopping the cluster failed: ${errorText(error)}`));
      }
    })());
  let written = false;
  const writeOnce = () => {
    if (written) return;
    written = true;
    results.machine.loadAfter = os.loadavg();
    results.durationSeconds = (Date.now() - began) / 1000;
    const markdown = writeScaling(OUT_DIR, results);
    process.stdout.write(`\n${markdown}\n`);
    log(`written to ${OUT_DIR}/results.{md,json}`);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: writing what was measured, then cleaning up`);
      results.notMeasured.push(`the run was interrupted (${signal}) after ${Math.round((Date.now() - began) / 1000)} s`);
      writeOnce();
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    engines = await acquireClusterEngines(log);
    results.engines = engines.provenance;
    const brokers = engines.kafkaBrokers.split(',').map((b) => b.trim());
    root = await makeTempRoot('gitdex-scaling-');
    standIn = await createGitHubStandIn({ root, secret: FAULT_SECRET, rateLimit: { limit: 100_000_000 } });
    const indexPrefix = uniqueName('sc').replace(/-/g, '');
    index = new ElasticsearchIndexStore({ node: engines.elasticsearchUrl, indexPrefix });
    log(`creating ${o.repos} repositories and ${o.costFiles.length} cost repositories on the stand-in`);
    const stormRepos = await createStormRepos(standIn, root, o.repos);
    const costRepos = await createCostRepos(standIn, root, o.costFiles);
    const allRepos = [...stormRepos, ...costRepos.values()];
    const logDir = join(OUT_DIR, 'logs');
    const s = standIn;
    const e = engines;

    for (const [i, n] of o.indexers.entries()) {
      const label = `n${n}`;
      const topic = `scaling.${indexPrefix}.${label}`;
      try {
        fleet = await Fleet.start(
          {
            label,
            root,
            logDir,
            kafkaBrokers: e.kafkaBrokers,
            elasticsearchUrl: e.elasticsearchUrl,
            indexPrefix,
            githubApiUrl: s.url,
            topic,
            groupId: `scaling-${indexPrefix}-${label}`,
            webhooks: 2,
            indexers: n,
            readers: 2,
          },
          log,
        );
        const f = fleet;
        s.configure({ webhookUrl: `${f.webhookFront.url}/webhooks/github` });
        const meter: MeterContext = { fleet: f, standIn: s, elasticsearchUrl: e.elasticsearchUrl, indexPrefix, jvmPids: () => e.jvmPids() };
        if (i === 0) {
          log(`first index of ${allRepos.length} repositories with ${n} indexer(s)`);
          const seconds = await firstIndex(s, index, allRepos);
          const content = await contentOf(allRepos);
          results.firstIndex = { repositories: allRepos.length, files: content.files, contentBytes: content.bytes, seconds, indices: await indexSizes(e.elasticsearchUrl, indexPrefix) };
          log(`first index: ${content.files} files, ${(content.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`);
          if (o.costFiles.length > 0) {
            log(`per-push costs: ${o.costPushes} pushes each of ${o.costFiles.join(', ')} changed files`);
            results.costs = await measureCosts(s, f, meter, costRepos, o.costPushes, log);
          }
        }
        log(`N=${n}: committing the storm's pushes (${o.rate}/s × ${o.seconds} s over ${stormRepos.length} repositories; not measured)`);
        await prepareStorm(stormRepos, { rate: o.rate, seconds: o.seconds, drainTimeoutMs: o.drainMs });
        const tracker = new FreshnessTracker(index, () => f.readerFront.url).start();
        try {
          log(`N=${n}: storm`);
          const storm = await runStorm(s, stormRepos, tracker, meter, n, { rate: o.rate, seconds: o.seconds, drainTimeoutMs: o.drainMs, brokers, deadLetterTopic: `${topic}.dlq` }, log);
          results.storms.push(storm);
          log(
            `N=${n}: ${storm.acknowledged} acknowledged, ${storm.eventsPerSecond?.toFixed(1) ?? 'not drained'} events/s, freshness p50 ${storm.freshnessP50Ms} ms p99 ${storm.freshnessP99Ms} ms, machine busy ${(storm.meter.machineBusy * 100).toFixed(0)} %`,
          );
        } finally {
          await tracker.stop();
        }
        const bytes = await topicBytes(brokers, topic);
        if (bytes.messages > 0) results.kafkaBytesPerEvent ??= bytes.bytes / bytes.messages;
        if (i === 0) {
          for (const row of results.costs) {
            const repo = costRepos.get(row.files)!;
            const own = bytes.byKey.get(String(repo.id));
            row.kafkaBytesPerPush = own && own.messages > 0 ? own.bytes / own.messages : null;
          }
        }
      } catch (error) {
        log(`N=${n} FAILED: ${errorText(error)}`);
        results.stormFailures.push({ indexers: n, error: `${errorText(error)}\n${fleet?.tails(10) ?? ''}` });
      } finally {
        await fleet?.close();
        fleet = undefined;
        s.configure({ webhookUrl: null });
      }
    }
    const filesIndex = results.firstIndex?.indices.find((x) => x.index.startsWith(`${indexPrefix}-files`));
    if (results.costs.length > 0) results.capacity = capacity(results.costs, results.kafkaBytesPerEvent, filesIndex, results.firstIndex?.contentBytes ?? 0);
    if (engines.jvmPids().elasticsearch.length === 0) results.notMeasured.push('CPU of the Elasticsearch nodes and Kafka brokers (a given cluster: their processes are not ours to read)');
  } finally {
    writeOnce();
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:scaling failed: ${errorText(error)}\n`);
    process.exit(1);
  },
);
