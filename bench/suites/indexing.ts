import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { figure, row } from '../report/model';
import { drainTarball } from '../measure/archive';
import { commitToken, pushAndWait, type PushSample } from '../measure/push';
import { RssSampler } from '../measure/proc';
import { elasticsearchRaw, rawWriteMs, sqliteRaw, type RawTarget } from '../measure/raw-writes';
import { quietElasticsearch } from '../measure/settle';
import { median } from '../measure/stats';
import type { Backend } from '../setup/backends';
import { copyRepo, OWNER, type BenchRepo } from '../setup/repos';
import { largeRepo, ZERO_SHA, type SuiteContext } from './context';
import { githubAnswerMs, githubPhases } from './freshness-profile';
import { partsProfile } from './indexing-profile';

type Size = 'small' | 'medium' | 'large';
const SIZES: Size[] = ['small', 'medium', 'large'];

function sizeRepo(ctx: SuiteContext, size: Size): BenchRepo {
  return size === 'large' ? largeRepo(ctx) : ctx.repos[size];
}

/** The repository for the r-th full index of a size: the original, then shared copies. */
async function repoFor(ctx: SuiteContext, size: Size, r: number): Promise<BenchRepo> {
  const base = sizeRepo(ctx, size);
  if (r === 0) return base;
  const name = `${size}-copy${r}`;
  if (existsSync(join(ctx.root, OWNER, name))) return { ...base, name, fullName: `${OWNER}/${name}`, dir: join(ctx.root, OWNER, name) };
  return copyRepo(ctx.root, base, name);
}

/** Every timed write starts from an engine that has flushed and merged what came before (quietElasticsearch). */
async function quiet(ctx: SuiteContext, backend: Backend): Promise<void> {
  if (backend.name === 'elasticsearch') await quietElasticsearch(ctx.engines!.elasticsearchUrl);
}

/** A fresh raw-bulk index of this run: its start time keeps runs on reused engines apart. */
function rawIndexName(ctx: SuiteContext, what: string): string {
  return `benchraw-${ctx.results.startedAt.replace(/[^0-9]/g, '').slice(0, 14)}-${what}`;
}

function rawTarget(ctx: SuiteContext, backend: Backend, size: Size, r: number): RawTarget {
  if (backend.name === 'elasticsearch') return elasticsearchRaw(ctx.engines!.elasticsearchUrl, rawIndexName(ctx, `${size}-${r}`));
  return sqliteRaw(join(ctx.workDir, `raw-${size}-${r}.sqlite`));
}

/** The r-th full index of a size (webhook → first read answers), each of a fresh copy of the repository. */
async function fullIndexMs(ctx: SuiteContext, backend: Backend, size: Size, r: number): Promise<number> {
  const repo = await repoFor(ctx, size, r);
  // GitHub's codeload serves an archive it made before from cache; asking once first keeps the stand-in's gzip out of the figure.
  await drainTarball(ctx.standIn, repo);
  await quiet(ctx, backend);
  const push = { standIn: ctx.standIn, readerUrl: backend.readerUrl };
  const sample = await pushAndWait(push, repo, null, { intervalMs: size === 'small' ? 20 : 100, timeoutMs: 30 * 60_000, before: ZERO_SHA });
  ctx.log(`  ${backend.name} full index ${repo.fullName}: ${repo.corpus.files.length} files in ${(sample.freshnessMs / 1000).toFixed(2)} s`);
  return sample.freshnessMs;
}

/** The r-th raw write of the same documents, each into a fresh index or database. */
async function rawWriteOnceMs(ctx: SuiteContext, backend: Backend, size: Size, r: number): Promise<number> {
  const target = rawTarget(ctx, backend, size, r);
  await quiet(ctx, backend);
  const ms = await rawWriteMs(target, sizeRepo(ctx, size), 900_000_000 + r);
  ctx.log(`  ${target.label} ${size}: ${(ms / 1000).toFixed(2)} s`);
  return ms;
}

/**
 * Full index of the small, medium and large repository (webhook → first read answers),
 * alternated with raw writes of the same documents; the indexer's peak memory; and a one-file push
 * on the large repository beside the same push on the small one.
 */
export async function indexingSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const { config } = ctx;
  let hwmBeforeLarge = 0;
  let largeSampler: RssSampler | null = null;
  for (const size of SIZES) {
    const { corpus } = sizeRepo(ctx, size);
    const productMs: number[] = [];
    if (size === 'large') {
      hwmBeforeLarge = backend.indexer.memory()?.hwmMb ?? 0;
      largeSampler = new RssSampler(backend.indexer.pid, 200);
    }
    const rawMs: number[] = [];
    for (let r = 0; r < config.indexRepeats[size]; r += 1) {
      const fullIndex = async () => productMs.push(await fullIndexMs(ctx, backend, size, r));
      const rawWrite = async () => rawMs.push(await rawWriteOnceMs(ctx, backend, size, r));
      // In the order raw, full, full, raw, raw, full, …: whatever follows a full index is slowed
      // by it (after the flush and the merges: the engine's memory?), so each side gets that
      // place once in three. All full indexes first made the raw bulks faster from the first
      // to the third (22.9, 16.9, 15.8 s on 2026-12-04); full, raw, raw, full, full, raw gave the
      // raw bulks two of those places (a raw bulk after a raw bulk 16.98–19.72 s, after a full
      // index 19.91–26.19 s, in three runs).
      for (const write of r % 2 === 0 ? [rawWrite, fullIndex] : [fullIndex, rawWrite]) await write();
    }
    const rawLabel = backend.name === 'elasticsearch' ? 'raw ES bulk' : 'raw SQLite writes';
    if (size === 'large') {
      const withTermsMs = backend.name === 'elasticsearch' ? await rawBulkWithTermsMs(ctx, config.indexRepeats.large) : null;
      ctx.results.profiles.push({ title: `Full index on ${backend.name}: where the time goes`, lines: await partsProfile(ctx, backend, median(productMs), median(rawMs), withTermsMs) });
    }
    const perSecond = (ms: number[], amount: number) => ms.map((m) => amount / (m / 1000));
    ctx.results.rows.push(
      row({
        suite: 'indexing',
        backend: backend.name,
        case: `full index ${size} (${corpus.files.length.toLocaleString('en-US')} files)`,
        value: figure('gitdex', 'files/s', perSecond(productMs, corpus.files.length)),
        baseline: figure(rawLabel, 'files/s', perSecond(rawMs, corpus.files.length)),
      }),
      row({
        suite: 'indexing',
        backend: backend.name,
        case: `full index ${size} (${(corpus.bytes / 1e6).toFixed(1)} MB)`,
        value: figure('gitdex', 'MB/s', perSecond(productMs, corpus.bytes / 1e6)),
        baseline: figure(rawLabel, 'MB/s', perSecond(rawMs, corpus.bytes / 1e6)),
      }),
    );
  }
  const large = largeSampler?.stop();
  if (large) {
    const what = backend.name === 'elasticsearch' ? 'indexer process' : 'single process (webhook+indexer+reader)';
    ctx.results.rows.push(
      row({
        suite: 'indexing',
        backend: backend.name,
        case: `peak RSS of the ${what} (VmHWM) after the large full index`,
        value: figure('after large', 'MiB', [large.hwmMb ?? large.maxRssMb]),
        baseline: figure('after small+medium', 'MiB', [hwmBeforeLarge]),
      }),
    );
  }
  await onePushSuite(ctx, backend);
}

/**
 * Raw bulk of the large repository's documents with their content terms, as the index
 * stores them (median of `repeats`): the engine's own cost of the terms, beside which the
 * full index shows what the pipeline adds.
 */
async function rawBulkWithTermsMs(ctx: SuiteContext, repeats: number): Promise<number> {
  const ms: number[] = [];
  for (let r = 0; r < repeats; r += 1) {
    const target = elasticsearchRaw(ctx.engines!.elasticsearchUrl, rawIndexName(ctx, `terms-${r}`), { withTerms: true });
    await quietElasticsearch(ctx.engines!.elasticsearchUrl);
    ms.push(await rawWriteMs(target, largeRepo(ctx), 900_000_100 + r));
    ctx.log(`  ${target.label} large: ${(ms[r]! / 1000).toFixed(2)} s`);
  }
  return median(ms);
}

/** One-file push on the large repository vs the same push on the small one, alternating. */
async function onePushSuite(ctx: SuiteContext, backend: Backend): Promise<void> {
  const push = { standIn: ctx.standIn, readerUrl: backend.readerUrl };
  const options = { intervalMs: ctx.config.freshness.pollMs, timeoutMs: 120_000 };
  const small: PushSample[] = [];
  const large: PushSample[] = [];
  ctx.standIn.requests.reset();
  for (let i = 0; i < ctx.config.onePushRepeats; i += 1) {
    for (const [repo, into] of i % 2 === 0
      ? ([
          [ctx.repos.small, small],
          [largeRepo(ctx), large],
        ] as const)
      : ([
          [largeRepo(ctx), large],
          [ctx.repos.small, small],
        ] as const)) {
      const token = await commitToken(repo);
      into.push(await pushAndWait(push, repo, token, options));
    }
  }
  const log = ctx.standIn.requests.list();
  ctx.results.profiles.push(
    { title: `One-file push on ${backend.name}, large repository (medians per push)`, lines: await githubPhases(ctx, large, log) },
    { title: `One-file push on ${backend.name}, small repository (medians per push)`, lines: await githubPhases(ctx, small, log) },
  );
  const what = `large repo (${largeRepo(ctx).corpus.files.length.toLocaleString('en-US')} files) vs small (${ctx.repos.small.corpus.files.length})`;
  const nearlyEqual = (value: ReturnType<typeof figure>, baseline: ReturnType<typeof figure>) => {
    const ratio = value.summary.median / baseline.summary.median;
    return { text: 'nearly equal: ratio ≤ 1.5×', met: Number.isFinite(ratio) ? ratio <= 1.5 : null };
  };
  const value = figure(
    'large repo',
    'ms',
    large.map((s) => s.freshnessMs),
  );
  const baseline = figure(
    'small repo',
    'ms',
    small.map((s) => s.freshnessMs),
  );
  // The stand-in's answers (e.g. GET /repos/{owner}/{repo} computes the repository size) grow with the repository; GitHub's do not.
  const [largeGithub, smallGithub] = [await githubAnswerMs(ctx, large, log), await githubAnswerMs(ctx, small, log)];
  const ownValue = figure(
    'large repo',
    'ms',
    large.map((s, i) => s.freshnessMs - largeGithub[i]!),
  );
  const ownBaseline = figure(
    'small repo',
    'ms',
    small.map((s, i) => s.freshnessMs - smallGithub[i]!),
  );
  ctx.results.rows.push(
    row({ suite: 'indexing', backend: backend.name, case: `one-file push, ${what}`, value, baseline, target: nearlyEqual(value, baseline) }),
    row({
      suite: 'indexing',
      backend: backend.name,
      case: `one-file push, ${what}: gitdex's own time (freshness minus the stand-in's answer times)`,
      value: ownValue,
      baseline: ownBaseline,
      target: nearlyEqual(ownValue, ownBaseline),
    }),
  );
}
