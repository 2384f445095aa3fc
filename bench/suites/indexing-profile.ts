import type { ProxiedRequest } from '../measure/http-proxy';
import { pushAndWait } from '../measure/push';
import { documentBatches } from '../measure/raw-writes';
import { formatNumber } from '../report/format';
import type { Backend } from '../setup/backends';
import { drainTarball } from '../measure/archive';
import { copyRepo } from '../setup/repos';
import { largeRepo, ZERO_SHA, type SuiteContext } from './context';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The parts of a full index of the large repository, each measured alone in the bench process. */
export interface PartsAlone {
  /** The stand-in making the tarball (git archive + gzip) for a reader that only drains it. */
  tarballMs: number;
  /** The stand-in serving the same tarball again, from its archive cache (what the timed full indexes read). */
  cachedTarballMs: number;
  tarballBytes: number;
  /** Reading every committed file (git cat-file), building and serializing its FileDocument. */
  documentsMs: number;
}

let cached: PartsAlone | null = null;

/** Measured once a run (the same for every backend). */
export async function partsAlone(ctx: SuiteContext): Promise<PartsAlone> {
  if (cached) return cached;
  const fresh = await drainTarball(ctx.standIn, await copyRepo(ctx.root, largeRepo(ctx), 'large-archive'));
  const again = await drainTarball(ctx.standIn, largeRepo(ctx));
  const started = performance.now();
  for await (const batch of documentBatches(largeRepo(ctx), 1)) JSON.stringify(batch);
  cached = { tarballMs: fresh.ms, cachedTarballMs: again.ms, tarballBytes: again.bytes, documentsMs: performance.now() - started };
  return cached;
}

/** A full index beside its parts measured alone: whether the pipeline overlaps them. */
export async function partsProfile(ctx: SuiteContext, backend: Backend, productMs: number, rawMs: number, rawWithTermsMs: number | null = null): Promise<string[]> {
  const parts = await partsAlone(ctx);
  const files = largeRepo(ctx).corpus.files.length;
  const sum = parts.cachedTarballMs + parts.documentsMs + rawMs;
  return [
    `full index of the large repository (${files.toLocaleString('en-US')} files): ${seconds(productMs)} median, webhook → readable`,
    `its parts measured alone: the stand-in serves the tarball (${(parts.tarballBytes / 1e6).toFixed(0)} MB gzipped) from its archive cache in ${seconds(parts.cachedTarballMs)} (making it, git archive + gzip, takes ${seconds(parts.tarballMs)}: GitHub's work, kept out of the timed indexes by asking for each archive once before); reading every file from git and building and serializing its FileDocument ${seconds(parts.documentsMs)} (${formatNumber(files / (parts.documentsMs / 1000))} files/s); ${backend.name === 'elasticsearch' ? 'raw bulk' : 'raw writeFiles'} of the same documents ${seconds(rawMs)}`,
    sum >= productMs
      ? `sum of the parts ${seconds(sum)} = ${((100 * sum) / productMs).toFixed(0)} % of the full index: the pipeline overlaps them (reading the tarball while bulks are written)`
      : `sum of the parts ${seconds(sum)} = ${((100 * sum) / productMs).toFixed(0)} % of the full index; the rest (${seconds(productMs - sum)}) is the indexer's own tar reading (gunzip, tar parse, blob hashing) and waiting`,
    ...(rawWithTermsMs !== null
      ? [
          `raw bulk of the same documents with their content terms (made inside the timing), as the index stores them: ${seconds(rawWithTermsMs)}, ${(rawWithTermsMs / rawMs).toFixed(2)}× the raw bulk without them; the full index takes ${(productMs / rawWithTermsMs).toFixed(2)}× this bulk`,
        ]
      : []),
  ];
}

/**
 * One more full index of the large repository with the indexer's Elasticsearch behind the
 * timing proxy (`requests`): how much of it is spent in _bulk requests, which run one at a time.
 */
export async function bulkShareProfile(ctx: SuiteContext, backend: Backend, requests: ProxiedRequest[]): Promise<string[]> {
  const repo = await copyRepo(ctx.root, largeRepo(ctx), 'large-profile');
  await drainTarball(ctx.standIn, repo);
  const from = requests.length;
  const sample = await pushAndWait({ standIn: ctx.standIn, readerUrl: backend.readerUrl }, repo, null, { intervalMs: 100, timeoutMs: 30 * 60_000, before: ZERO_SHA });
  const mine = requests.slice(from).filter((r) => r.start >= sample.sentAt && r.end <= sample.seenAt);
  const bulks = mine.filter((r) => r.op.endsWith('_bulk'));
  const bulkMs = bulks.reduce((s, r) => s + (r.end - r.start), 0);
  const otherMs = mine.reduce((s, r) => s + (r.end - r.start), 0) - bulkMs;
  let overlap = 0;
  for (let i = 1; i < bulks.length; i += 1) if (bulks[i]!.start < bulks[i - 1]!.end) overlap += 1;
  return [
    `one more full index of the large repository with the indexer's Elasticsearch behind the timing proxy: ${seconds(sample.freshnessMs)} webhook → readable`,
    `Elasticsearch _bulk requests: ${bulks.length} (${formatNumber(largeRepo(ctx).corpus.files.length / Math.max(1, bulks.length))} documents each on average), ${seconds(bulkMs)} in all = ${((100 * bulkMs) / sample.freshnessMs).toFixed(0)} % of the index; ${overlap} of them started before the previous one ended; other Elasticsearch requests ${seconds(otherMs)}`,
    `so for ${((100 * (sample.freshnessMs - bulkMs - otherMs)) / sample.freshnessMs).toFixed(0)} % of the time no Elasticsearch request is in flight: the indexer is reading the tarball and building documents (or waiting for the event)`,
  ];
}
