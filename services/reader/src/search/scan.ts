import type { Freshness } from '@gitdex/contracts';
import type { ContentCandidate, ContentPlan, ContentScope, FileContent, Snapshot } from '@gitdex/ports';
import type { ReaderDeps } from '../deps';
import type { Pass } from '../promise-lru';
import { DeadlineReached, type Deadline } from './deadline';
import type { PathMatcher } from './globs';
import type { CompiledQuery } from './query';
import { isDefinition, isWholeWord, tierOf, type RankKey } from './rank';
import { pagesAhead, readAhead } from './read-ahead';
import { requirementOf, type Requirement } from './requirement';
import { matchPool, verifiesInThread } from './match-pool';
import { findHits, type FileHits, type LineHit } from './verify';

/** Contents read at a time. */
const CONTENT_BATCH = 50;
/**
 * Candidates a page (without contents: a path filter drops some, and some are in memory):
 * the first page small, as a selective search needs no more, each next one twice the one
 * before. A page costs the index about the same at any size (SQLite evaluates the whole
 * match for each), so a search over thousands of candidates asks a few times, not dozens.
 */
const FIRST_CANDIDATE_PAGE = 500;
const LARGEST_CANDIDATE_PAGE = 8_000;
const candidatePageSize = (index: number) => Math.min(FIRST_CANDIDATE_PAGE * 2 ** index, LARGEST_CANDIDATE_PAGE);
/** Repositories searched at once: a search of many waits on the index once for several. */
const PARALLEL_REPOSITORIES = 4;
/** Matching lines kept per file (match_count counts them all). */
const KEEP_LINES = 20;
/** Unsearchable files counted per repository at most. */
const MAX_SKIPPED_SCAN = 10_000;
const SKIPPED_PAGE = 1_000;
/** Main-thread work between two yields to the event loop (health checks and other calls answer meanwhile). */
const YIELD_EVERY_MS = 10;
/** Paths a filter tests between two looks at the clock: 20 long globs cost ~0.1 ms a path at most. */
const PATHS_PER_CLOCK = 64;
/** Characters of matching files' contents kept for the page; the page reads again what did not fit. */
const KEEP_CONTENT_CHARS = 16 * 1024 * 1024;

/** One searched snapshot: the repository and ref state it shows. */
export interface Searched {
  repository: string;
  snapshot: Snapshot;
  commit: string;
  freshness: Freshness;
  fileCount: number;
}

export interface Found {
  searched: Searched;
  path: string;
  language: string | null;
  count: number;
  hits: LineHit[];
  rank: RankKey;
}

export interface Filters {
  include: PathMatcher | null;
  exclude: PathMatcher | null;
  language: string | undefined;
  includeGenerated: boolean;
}

export interface Scan {
  /** In the order searched (repositories, then paths); the caller ranks them. */
  found: Found[];
  totalFiles: number;
  totalMatches: number;
  complete: boolean;
  countsExact: boolean;
  /** Why the scan stopped before the end, if it did. */
  stoppedBy: 'deadline' | 'result cap' | null;
  skipped: { binary: number; too_large: number };
  /** Contents of matching files, by contentKey, as far as KEEP_CONTENT_CHARS allows. */
  contents: Map<string, string>;
}

/**
 * Thrown when a repository's scan holds `maxFiles` matching files (limits.searchMaxFiles): a
 * query that matches everywhere (`return`) answers from the first ones instead of reading the
 * whole corpus to its deadline, as zoekt's and Sourcegraph's match limits do.
 */
class ResultCapReached extends Error {}

type Scope = Omit<ContentScope, 'afterPath' | 'limit'>;

export const contentKey = (searched: Searched, path: string): string => `${searched.snapshot.repositoryId}\0${searched.snapshot.ref}\0${path}`;

const pathAllowed = (filters: Filters, path: string) => (filters.include === null || filters.include(path)) && (filters.exclude === null || !filters.exclude(path));

/** The files of a page the path filters allow, looking at the deadline as it goes (a page holds up to 8,000 paths). */
async function allowedOf<T extends { path: string }>(filters: Filters, page: T[], deadline: Deadline, pacer: Pacer): Promise<T[]> {
  if (filters.include === null && filters.exclude === null) return page;
  const kept: T[] = [];
  for (let i = 0; i < page.length; i += 1) {
    if (i % PATHS_PER_CLOCK === 0) {
      if (deadline.expired()) throw new DeadlineReached();
      await pacer.pace();
    }
    const file = page[i] as T;
    if (pathAllowed(filters, file.path)) kept.push(file);
  }
  return kept;
}

/** Gives the event loop a turn when this search has held it for YIELD_EVERY_MS. */
class Pacer {
  private since = performance.now();
  async pace(): Promise<void> {
    if (performance.now() - this.since < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/**
 * Candidates from the index, a page at a time, their contents verified line by line; up to
 * PARALLEL_REPOSITORIES repositories at once. The paths a filter excludes are dropped first,
 * and only the contents not verified by an earlier search are read. The deadline is checked
 * between files and inside long files, and aborts the index calls in flight.
 */
export async function scanAll(deps: ReaderDeps, searched: Searched[], query: CompiledQuery, plan: ContentPlan, filters: Filters, deadline: Deadline): Promise<Scan> {
  const maxFiles = deps.limits.searchMaxFiles;
  const scan: Scan = { found: [], totalFiles: 0, totalMatches: 0, complete: true, countsExact: true, stoppedBy: null, skipped: { binary: 0, too_large: 0 }, contents: new Map() };
  const scope: Scope = { includeGenerated: filters.includeGenerated, ...(filters.language !== undefined ? { language: filters.language } : {}) };
  const foundBy = searched.map((): Found[] => []);
  const kept = { chars: 0 };
  const requires = requirementOf(plan);
  // One pass for the whole search: its repositories share the memory's budget.
  const pass: Pass = {};
  try {
    await eachAtMost(searched, PARALLEL_REPOSITORIES, (target, i) =>
      allOrFirstError([
        scanTarget(deps, target, { query, plan, filters, scope, deadline, maxFiles, requires, pass }, scan, foundBy[i] as Found[], kept),
        countSkipped(deps, target, filters, scope, scan, deadline),
      ]),
    );
  } catch (error) {
    if (error instanceof ResultCapReached && !deadline.expired()) scan.stoppedBy = 'result cap';
    else if (error instanceof DeadlineReached || deadline.signal.aborted) scan.stoppedBy = 'deadline';
    else throw error;
    scan.complete = false;
    scan.countsExact = false;
  }
  // Each repository kept at most maxFiles, and a capped one ended the search (no later
  // repository starts): their first maxFiles in search order are those a one-by-one scan keeps.
  scan.found = foundBy.flat();
  if (scan.found.length > maxFiles) scan.found.length = maxFiles;
  return scan;
}

interface Search {
  query: CompiledQuery;
  plan: ContentPlan;
  filters: Filters;
  scope: Scope;
  deadline: Deadline;
  maxFiles: number;
  /** What the plan requires of a line, tested before the regex engine runs. */
  requires: Requirement | null;
  /** This search's uses of the contents kept in memory (PromiseLru's pass). */
  pass: Pass;
}

async function scanTarget(deps: ReaderDeps, target: Searched, search: Search, scan: Scan, found: Found[], kept: { chars: number }): Promise<void> {
  const { query, plan, filters, scope, deadline } = search;
  const pacer = new Pacer();
  // Cheap verifications run here, between yields to the event loop; costly ones (a regex's
  // program times the content's length) in a worker the pool terminates at the deadline.
  const hitsOf = async (content: string): Promise<FileHits> => {
    if (verifiesInThread(query, content.length)) {
      await pacer.pace();
      return findHits(content, query, KEEP_LINES, deadline.expired, search.requires);
    }
    return matchPool().verify(query, plan, content, KEEP_LINES, deadline.until);
  };
  const verify = async (candidate: ContentCandidate, content: string) => {
    if (deadline.expired()) throw new DeadlineReached();
    const hits = await hitsOf(content);
    if (hits.count > 0) {
      scan.totalFiles += 1;
      scan.totalMatches += hits.count;
      found.push({
        searched: target,
        path: candidate.path,
        language: candidate.language,
        count: hits.count,
        hits: hits.lines,
        rank: rankOf(target.repository, candidate, content, hits.lines, query),
      });
      if (kept.chars + content.length <= KEEP_CONTENT_CHARS) {
        kept.chars += content.length;
        scan.contents.set(contentKey(target, candidate.path), content);
      }
    }
    if (!hits.complete) throw new DeadlineReached();
    if (found.length >= search.maxFiles) throw new ResultCapReached();
  };
  const pages = filePages(deadline, candidatePageSize, (afterPath, limit) => deps.index.searchCandidates(target.snapshot, plan, { ...scope, afterPath, limit }, { signal: deadline.signal }));
  for await (const page of pages) {
    const wanted = await allowedOf(filters, page, deadline, pacer);
    // Contents verified before are taken from memory; the others are read from the index in
    // batches of CONTENT_BATCH (the next read while this one is verified), and kept. Each
    // batch is verified in path order, the order the result cap counts in.
    const batches = batchesOfUnread(wanted, (c) => deps.searchContents.peek(c.blobSha, search.pass) === undefined);
    for await (const [batch, contents] of readAhead(batches, (batch) => contentsOf(deps, target.snapshot, batch, search.pass, deadline.signal))) {
      for (const [i, candidate] of batch.entries()) {
        const content = contents[i]?.content;
        if (typeof content === 'string') await verify(candidate, content);
      }
    }
  }
}

/**
 * The contents of `batch`, in its order: from memory when verified before (by blob: a
 * blob's content never changes), else read from the index in one call and kept.
 */
async function contentsOf(deps: ReaderDeps, snapshot: Snapshot, batch: ContentCandidate[], pass: Pass, signal: AbortSignal): Promise<FileContent[]> {
  const cache = deps.searchContents;
  const known = batch.map((c) => cache.peek(c.blobSha, pass));
  const unread = batch.filter((_, i) => known[i] === undefined);
  const read = new Map<string, FileContent['content']>();
  if (unread.length > 0) {
    for (const { path, content } of await deps.index.readContents(
      snapshot,
      unread.map((c) => c.path),
      { signal },
    ))
      read.set(path, content);
  }
  for (const candidate of unread) {
    const content = read.get(candidate.path);
    if (typeof content === 'string') void cache.get(candidate.blobSha, () => Promise.resolve(content), pass);
  }
  return Promise.all(batch.map(async (c, i) => ({ path: c.path, content: (await known[i]) ?? read.get(c.path) ?? null })));
}

/** `candidates` in order, cut into batches of at most CONTENT_BATCH files still to read (files in memory ride along with them). */
function batchesOfUnread(candidates: ContentCandidate[], unread: (candidate: ContentCandidate) => boolean): ContentCandidate[][] {
  const batches: ContentCandidate[][] = [];
  let batch: ContentCandidate[] = [];
  let toRead = 0;
  for (const candidate of candidates) {
    if (unread(candidate)) {
      if (toRead === CONTENT_BATCH) {
        batches.push(batch);
        batch = [];
        toRead = 0;
      }
      toRead += 1;
    }
    batch.push(candidate);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Binary and too large files in the scope: counted by the index, or (with a path filter it cannot apply) listed and filtered here. */
async function countSkipped(deps: ReaderDeps, target: Searched, filters: Filters, scope: Scope, scan: Scan, deadline: Deadline): Promise<void> {
  if (filters.include === null && filters.exclude === null) {
    const counted = await deps.index.countUnsearchable(target.snapshot, scope, { signal: deadline.signal });
    scan.skipped.binary += counted.binary;
    scan.skipped.too_large += counted.tooLarge;
    return;
  }
  let seen = 0;
  const pacer = new Pacer();
  for await (const page of filePages(
    deadline,
    () => SKIPPED_PAGE,
    (afterPath, limit) => deps.index.unsearchableFiles(target.snapshot, { ...scope, afterPath, limit }, { signal: deadline.signal }),
  )) {
    for (const file of await allowedOf(filters, page, deadline, pacer)) {
      if (file.flags.binary) scan.skipped.binary += 1;
      else if (file.flags.tooLarge) scan.skipped.too_large += 1;
    }
    seen += page.length;
    if (seen >= MAX_SKIPPED_SCAN) return;
  }
}

/** Pages of files in path order from the index, the next asked for ahead; none is asked once the deadline has passed. */
function filePages(deadline: Deadline, sizeOf: (index: number) => number, read: (afterPath: string | null, limit: number) => Promise<ContentCandidate[]>): AsyncGenerator<ContentCandidate[]> {
  return pagesAhead(async (after: ContentCandidate | null, size: number) => {
    if (deadline.expired()) throw new DeadlineReached();
    return read(after?.path ?? null, size);
  }, sizeOf);
}

function rankOf(repository: string, candidate: ContentCandidate, content: string, hits: LineHit[], query: CompiledQuery): RankKey {
  let quality = 0;
  let definition = false;
  for (const hit of hits) {
    const text = content.slice(hit.start, hit.end);
    const whole = hit.ranges.some(([s, e]) => isWholeWord(text, s, e));
    const exact = query.caseSensitive || query.exactCase.matcher(text).find();
    quality = Math.max(quality, Number(whole) + Number(exact));
    if (!definition) definition = hit.ranges.some(([s, e]) => isDefinition(text, s, e));
  }
  return { quality, definition, tier: tierOf(candidate.path, candidate.flags), depth: candidate.path.split('/').length, length: candidate.path.length, repository, path: candidate.path };
}

/** Runs `work` on every item, at most `most` at once; after a failure no new item starts, and the first failure is thrown once all have stopped. */
async function eachAtMost<T>(items: readonly T[], most: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(most, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/** Waits for every one (none keeps working behind the answer), then throws the first failure, if any. */
async function allOrFirstError(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
