// The scaling run's results as Markdown (printed and written) and JSON, in test-artifacts/scaling/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cell, formatNumber } from '../report/format';
import type { CostRow } from './costs';
import type { IndexSize } from './es-stats';
import type { Capacity, LinearFit } from './model';
import type { StormResult } from './storm';

export interface ScalingResults {
  startedAt: string;
  durationSeconds: number;
  machine: { cores: number; cpuModel: string; memGb: number; node: string; loadBefore: number[]; loadAfter: number[] };
  engines: string;
  repositories: number;
  options: { rate: number; seconds: number; indexers: number[]; costFiles: number[]; costPushes: number };
  firstIndex: { repositories: number; files: number; contentBytes: number; seconds: number; indices: IndexSize[] } | null;
  storms: StormResult[];
  stormFailures: { indexers: number; error: string }[];
  costs: CostRow[];
  kafkaBytesPerEvent: number | null;
  capacity: Capacity | null;
  notMeasured: string[];
}

const ms = (v: number | null) => formatNumber(v, 'ms');
const s1 = (v: number | null) => (v === null ? '–' : v.toFixed(1));
const cpuMs = (v: number | null) => (v === null ? '–' : (v * 1000).toFixed(1));
const kb = (v: number | null) => (v === null ? '–' : (v / 1024).toFixed(1));
const fitText = (f: LinearFit | null, scale = 1, unit = '') => (f ? `${(f.fixed * scale).toPrecision(3)} + ${(f.perFile * scale).toPrecision(3)} × files${unit}` : '–');

export function scalingTable(storms: StormResult[]): string {
  const header =
    '| indexer processes | pushes (offered/s × s) | sent/s | acknowledged | events/s indexed | vs the first row | drain s | freshness p50 | freshness p99 | freshness max | webhook 202 p50 / p99 | indexer CPU s / push | machine CPU busy | CPU s (indexers / ES / Kafka / webhooks / readers / GitHub stand-in + generator) |\n' +
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|';
  const base = storms[0]?.eventsPerSecond ?? storms[0]?.readablePerSecondAtTimeout ?? null;
  const rows = storms.map((r) => {
    const rate = r.eventsPerSecond ?? r.readablePerSecondAtTimeout;
    const c = r.meter.cpu;
    return `| ${r.indexers} | ${r.pushes} (${r.offeredRate} × ${r.seconds}) | ${r.sentRate.toFixed(1)} | ${r.acknowledged}${r.refused ? ` (${r.refused} refused first, ${r.redelivered} redelivered)` : ''} | ${r.eventsPerSecond === null ? `≥ ${s1(r.readablePerSecondAtTimeout)} (not drained)` : s1(r.eventsPerSecond)} | ${base && rate !== null ? `${(rate / base).toFixed(2)}×` : '–'} | ${s1(r.drainSeconds)}${r.drainSeconds === null ? ` (not drained: ${r.readable} readable)` : ''}${r.deadLetters ? `, ${r.deadLetters} dead letters` : ''} | ${ms(r.freshnessP50Ms)} | ${ms(r.freshnessP99Ms)} | ${ms(r.freshnessMaxMs)} | ${ms(r.ackP50Ms)} / ${ms(r.ackP99Ms)} | ${r.indexerCpuPerPush.toFixed(3)} | ${(r.meter.machineBusy * 100).toFixed(0)} % | ${[c.indexer, c.elasticsearch, c.kafka, c.webhook, c.reader, c.generator].map((x) => x.toFixed(0)).join(' / ')} |`;
  });
  const work = storms.map(
    (r) =>
      `- ${r.indexers} indexer(s): ${r.indexer.handled} events handled of ${r.acknowledged} acknowledged (the rest coalesced in a batch with a newer push of the same ref); index runs: ${
        Object.entries(r.indexer.runs)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none'
      }`,
  );
  return [header, ...rows, '', ...work].join('\n');
}

export function costTable(costs: CostRow[]): string {
  const header =
    '| files changed a push | pushes | indexer CPU ms / push (net of idle) | ES CPU ms / push (3 nodes) | Kafka CPU ms / push (3 brokers) | webhook CPU ms / push | reader CPU ms / push (the freshness polling) | GitHub requests / push | ES docs / push (primaries / all copies) | ES bulk KB / push (primaries / all copies) | Kafka bytes / event | freshness median |\n' +
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|';
  const rows = costs.map(
    (r) =>
      `| ${r.files} | ${r.pushes} | ${cpuMs(r.indexerCpuPerPush)} | ${cpuMs(r.elasticsearchCpuPerPush)} | ${cpuMs(r.kafkaCpuPerPush)} | ${cpuMs(r.webhookCpuPerPush)} | ${cpuMs(r.readerCpuPerPush)} | ${r.githubRequestsPerPush.toFixed(1)} | ${r.esDocsPerPush.toFixed(1)} / ${r.esDocsPerPushAllCopies.toFixed(1)} | ${kb(r.esBulkBytesPerPush)} / ${kb(r.esBulkBytesPerPushAllCopies)} | ${r.kafkaBytesPerPush === null ? '–' : Math.round(r.kafkaBytesPerPush)} | ${ms(r.freshnessMedianMs)} |`,
  );
  const routes = costs.map(
    (r) =>
      `- ${r.files} file(s): ${
        Object.entries(r.routesPerPush)
          .sort((a, b) => b[1] - a[1])
          .map(([route, n]) => `${cell(route)} ${n.toFixed(1)}`)
          .join('; ') || 'none'
      }`,
  );
  return [header, ...rows, '', 'GitHub requests a push, by route:', '', ...routes].join('\n');
}

export function capacityText(c: Capacity): string {
  const a = c.assumptions;
  const lines = [
    `Assumptions: ${a.pushesPerSecond} pushes/s over ${a.repositories.toLocaleString('en-US')} repositories, ${a.filesPerPush} files changed a push, ${Math.round(a.targetUtilisation * 100)} % target CPU use, Kafka replication ${a.kafkaReplicationFactor} and ${a.kafkaRetentionDays} days' retention, ${a.elasticsearchReplicas} Elasticsearch replica; ${a.filesSearched.toLocaleString('en-US')} files of ${(a.averageFileBytes / 1024).toFixed(1)} KB on average searched.`,
    '',
    'Fitted per-push costs (least squares over the rows above):',
    '',
    `- indexer CPU-seconds = ${fitText(c.fits.indexerCpu)}`,
    `- Elasticsearch CPU-seconds (all nodes) = ${fitText(c.fits.elasticsearchCpu)}`,
    `- Kafka CPU-seconds (all brokers) = ${fitText(c.fits.kafkaCpu)}`,
    `- webhook CPU-seconds = ${fitText(c.fits.webhookCpu)}`,
    `- GitHub requests = ${fitText(c.fits.githubRequests)}`,
    `- Elasticsearch documents (all copies) = ${fitText(c.fits.esDocs)}`,
    `- Elasticsearch bulk bytes (all copies) = ${fitText(c.fits.esBulkBytes)}`,
    `- Kafka bytes an event = ${c.kafkaBytesPerEvent === null ? '–' : Math.round(c.kafkaBytesPerEvent)}`,
    '',
    'Sizing:',
    '',
    `- indexer: ${c.indexerCores.toFixed(2)} cores → ${c.indexerProcesses} indexer processes`,
    `- Elasticsearch indexing CPU: ${c.elasticsearchCores === null ? '–' : c.elasticsearchCores.toFixed(2)} cores; Kafka: ${c.kafkaCores === null ? '–' : c.kafkaCores.toFixed(2)} cores; webhooks: ${c.webhookCores.toFixed(2)} cores`,
    `- GitHub: ${Math.round(c.githubRequestsPerHour).toLocaleString('en-US')} requests an hour (${Math.round(c.githubCoreRequestsPerHour).toLocaleString('en-US')} REST, ${Math.round(c.githubGraphqlPointsPerHour).toLocaleString('en-US')} GraphQL points) → ${c.githubInstallationsAt5000} installations at 5,000/h (${c.githubInstallationsAt15000} at 15,000/h)`,
    `- Elasticsearch writes: ${Math.round(c.esDocsPerSecond).toLocaleString('en-US')} documents/s, ${c.esBulkMBPerSecond === null ? '–' : c.esBulkMBPerSecond.toFixed(2)} MB/s of bulk requests`,
    `- Kafka: ${c.kafkaMBPerSecond === null ? '–' : c.kafkaMBPerSecond.toFixed(3)} MB/s written with replicas, ${c.kafkaRetainedGB === null ? '–' : c.kafkaRetainedGB.toFixed(1)} GB retained`,
    `- index for ${a.filesSearched.toLocaleString('en-US')} files: store/content ratio ${c.storeBytesPerContentByte === null ? '–' : c.storeBytesPerContentByte.toFixed(2)} → ${c.indexGB === null ? '–' : c.indexGB.toFixed(1)} GB primaries, ${c.indexGBAllCopies === null ? '–' : c.indexGBAllCopies.toFixed(1)} GB with replicas`,
  ];
  return lines.join('\n');
}

export function renderScaling(r: ScalingResults): string {
  const m = r.machine;
  const out = [
    '# gitdex scaling run',
    '',
    `- date: ${r.startedAt} (took ${Math.round(r.durationSeconds)} s)`,
    `- machine: **${m.cores} cores** (${m.cpuModel}), ${m.memGb} GB, Node ${m.node}; load average before ${m.loadBefore.map((l) => l.toFixed(2)).join('/')}, after ${m.loadAfter.map((l) => l.toFixed(2)).join('/')}`,
    `- engines: ${r.engines}`,
    `- ${r.repositories} repositories; storm: ${r.options.rate} pushes/s offered for ${r.options.seconds} s, 3 files a push, for ${r.options.indexers.join(', ')} indexer processes (2 webhooks and 2 readers each time, own topic and consumer group each time)`,
    '',
    '## Push storm',
    '',
    scalingTable(r.storms),
    ...(r.stormFailures.length ? ['', ...r.stormFailures.map((f) => `- ${f.indexers} indexer(s): FAILED: ${cell(f.error.slice(0, 400))}`)] : []),
    '',
    '## Per-push costs',
    '',
    r.costs.length ? costTable(r.costs) : 'not measured',
    '',
    '## First index',
    '',
    r.firstIndex
      ? [
          `${r.firstIndex.repositories} repositories, ${r.firstIndex.files.toLocaleString('en-US')} files, ${(r.firstIndex.contentBytes / 1e6).toFixed(1)} MB of content, indexed in ${r.firstIndex.seconds.toFixed(1)} s by one indexer process.`,
          '',
          '| index | docs | primary store | all copies |',
          '|---|--:|--:|--:|',
          ...r.firstIndex.indices.map((i) => `| ${i.index} | ${i.docs.toLocaleString('en-US')} | ${(i.primaryStoreBytes / 1e6).toFixed(1)} MB | ${(i.storeBytes / 1e6).toFixed(1)} MB |`),
        ].join('\n')
      : 'not measured',
    '',
    '## Capacity model',
    '',
    r.capacity ? capacityText(r.capacity) : 'not computed',
    ...(r.notMeasured.length ? ['', '## Not measured', '', ...r.notMeasured.map((n) => `- ${n}`)] : []),
    '',
  ];
  return out.join('\n');
}

export function writeScaling(dir: string, results: ScalingResults): string {
  mkdirSync(dir, { recursive: true });
  const markdown = renderScaling(results);
  writeFileSync(join(dir, 'results.md'), markdown);
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  return markdown;
}
