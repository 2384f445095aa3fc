import type { PublishedSite, RepositoryDocument } from '@gitdex/contracts';
import type { EventPublisher, HistoryReads } from '@gitdex/ports';
import type { ReaderIndex } from './index-layers/reader-index';
import type { RateLimiter } from './http/rate-limit';
import type { Principal } from './principal';
import { ReadHints } from './address/read-hints';
import { poolReferenceParsing, REFERENCE_BOUNDS, type ParsedReferences, type ReferenceBounds, type ReferenceParsing } from './symbols/reference-parsing';
import { PromiseLru } from './promise-lru';
import { ANONYMOUS_BACKFILL_CAP, ANONYMOUS_LOOKUPS_PER_DAY, DailyBudget, unseenLimiter, type BackfillCap, type QueueUnseenPolicy, type RepositoryLookup } from './unseen-lookup';
import type { Log } from '@gitdex/observability';
import { repeatEvery, type Repeat } from './waiting/repeat';
import { RepositoryWatchers } from './waiting/repository-watchers';

export type { Principal } from './principal';

export interface ReaderLimits {
  /** Most lines read_file returns a call. */
  maxLines: number;
  /** Most characters of file text read_file returns a call. */
  maxChars: number;
  /** Most entries a list_files page holds. */
  maxListEntries: number;
  /** Deepest list_files depth. */
  maxDepth: number;
  /** Characters of README an overview shows. */
  maxReadmeChars: number;
  /**
   * Budget of one tool result, text block and structured content together:
   * clients cap a tool result near 25,000 tokens, about 4 characters each.
   */
  maxResultChars: number;
  /** A call that the index does not answer within this time fails as "index unavailable" instead of hanging. */
  timeoutMs: number;
  /** search_code stops searching after this long (at most half of timeoutMs) and answers what it found, complete: false. */
  searchDeadlineMs: number;
  /**
   * search_code ranks at most this many matching files, the first in search order
   * (repositories, then paths), and stops there: complete and counts_exact false.
   */
  searchMaxFiles: number;
  /** Bytes a byte read returns when max_bytes is left out, and the most it may ask for. */
  defaultBytes: number;
  maxBytes: number;
  /**
   * Rough bytes of file contents search_code keeps by blob between calls, so a file verified
   * once (the big files that hold every trigram of many queries above all) is not fetched
   * from the index again. A blob's content never changes: nothing here goes stale.
   */
  searchCacheBytes: number;
}

export const DEFAULT_LIMITS: ReaderLimits = {
  maxLines: 400,
  maxChars: 16_000,
  maxListEntries: 1_000,
  maxDepth: 64,
  maxReadmeChars: 6_000,
  maxResultChars: 60_000,
  timeoutMs: 10_000,
  searchDeadlineMs: 4_000,
  searchMaxFiles: 5_000,
  defaultBytes: 65_536,
  maxBytes: 65_536,
  searchCacheBytes: 256 * 1024 * 1024,
};

export interface ReaderOptions {
  /** The index as composeIndex builds it, or a bare adapter (IndexReads, ContentSearch and ping). */
  index: ReaderIndex;
  /** Where backfills of repositories that are not indexed yet are queued; without it nothing is queued. */
  publisher?: EventPublisher;
  /** Commits and old file versions of indexed refs (list_commits, compare, blame); without it those tools say history is not kept. */
  history?: HistoryReads | undefined;
  limits?: Partial<ReaderLimits>;
  /** Base of the GitHub web URLs in answers, and of the URLs accepted as input. */
  githubWebUrl?: string;
  /**
   * Authorisation hook: whether the caller may read a repository. Default: public
   * repositories only. A repository it refuses is answered exactly like one that does
   * not exist: never listed, suggested, counted or hinted at.
   */
  access?: (repository: RepositoryDocument, principal: Principal | null) => boolean;
  now?: () => Date;
  /** Where failures the caller is not told about are logged (pino's Logger fits); none: they are not. */
  logger?: Log | undefined;
  /** Published sites whose document URLs read_file accepts as path (GITDEX_PUBLISHED_SITES). */
  sites?: PublishedSite[];
  /**
   * Asks GitHub about a repository the index has never seen, so a caller can have it queued
   * (see queueUnseen); without it, an unseen repository only says how to index it.
   */
  lookup?: RepositoryLookup | undefined;
  /** Who may have an unseen repository looked up and queued (GITDEX_QUEUE_UNSEEN). Default: tokens. */
  queueUnseen?: QueueUnseenPolicy;
  /** GitHub lookups of unseen repositories per caller a minute. Default 10. */
  unseenLookupsPerMinute?: number;
  /** Lookups of unseen repositories by callers without a token a day, all together (GITDEX_ANONYMOUS_QUEUE_DAILY). Default 100. */
  anonymousLookupsPerDay?: number;
  /** Size cap of a backfill queued without a token, as the indexer enforces it (GITDEX_ANONYMOUS_BACKFILL_MAX_*): said in the answer. */
  anonymousBackfillCap?: BackfillCap;
  /** How often a repository someone waits on (min_commit, subscriptions, changes) has its ref states read (GITDEX_WAIT_POLL_MS). Default 100. */
  waitPollMs?: number;
  /** The timer of those reads (tests run them by hand). Default: a real interval. */
  waitRepeat?: Repeat;
  /** How find_references parses candidate files. Default: @gitdex/symbols' worker pool, started on first use. */
  references?: ReferenceParsing;
  /** What one find_references call may parse (tests make them small). Default REFERENCE_BOUNDS. */
  referenceBounds?: Partial<ReferenceBounds>;
}

/** ReaderOptions with every default applied: what the tool core works with. */
export interface ReaderDeps {
  index: ReaderIndex;
  history: HistoryReads | undefined;
  publisher: EventPublisher | undefined;
  limits: ReaderLimits;
  githubWebUrl: string;
  access: (repository: RepositoryDocument, principal: Principal | null) => boolean;
  now: () => Date;
  logger: Log | undefined;
  sites: PublishedSite[];
  /** Repositories queued for a backfill by this process, and when: queues each at most once in a while. */
  backfillsQueued: Map<number, number>;
  /** What names and refs stood for when last read: guesses that let a read look up in one round trip. */
  readHints: ReadHints;
  lookup: RepositoryLookup | undefined;
  queueUnseen: QueueUnseenPolicy;
  /** Buckets of GitHub lookups of unseen repositories, per token or client address. */
  unseenLookups: RateLimiter;
  /** Lookups of unseen repositories by callers without a token today, all together. */
  anonymousLookups: DailyBudget;
  anonymousBackfillCap: BackfillCap;
  /**
   * Set for one call by the HTTP transports: the client's address, whose bucket an
   * anonymous caller's lookups of unseen repositories draw from (unseen.ts).
   */
  address?: string;
  /** Contents search_code verified, by blob sha (limits.searchCacheBytes). */
  searchContents: PromiseLru<string>;
  /** One watcher per repository someone waits on (waiting/repository-watchers.ts). */
  watchers: RepositoryWatchers;
  references: ReferenceParsing;
  referenceBounds: ReferenceBounds;
  /** Occurrences and definitions of a name find_references parsed, by blob, language and name. */
  referenceCache: PromiseLru<ParsedReferences>;
  /**
   * Set by callTool for one call: aborted when its deadline passes or its request is
   * cancelled. deps.index is then scoped to stop with it (index-layers/call-scope.ts); a loop
   * that works between index calls checks it too.
   */
  signal?: AbortSignal;
}

/** Ref-state reads of a watched repository: as often as the metadata window (100 ms) renews them anyway. */
const DEFAULT_WAIT_POLL_MS = 100;

/** Files search_code keeps at most between calls (their bytes are bounded by limits.searchCacheBytes). */
const SEARCH_CACHE_FILES = 100_000;
/** Blob and name pairs find_references keeps (most hold a few occurrences: a few hundred bytes each). */
const REFERENCE_CACHE = { maxEntries: 200_000, maxBytes: 64 * 1024 * 1024 };

export const publicOnly = (repository: RepositoryDocument): boolean => !repository.private;

export function resolveDeps(options: ReaderOptions | ReaderDeps): ReaderDeps {
  if ('backfillsQueued' in options) return options;
  if (!options.index) throw new TypeError('reader: an index (IndexStore) is required');
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) throw new TypeError(`reader: limits.${name} must be a positive whole number, got ${String(value)}`);
  }
  for (const [name, value] of Object.entries(options.referenceBounds ?? {})) {
    if (!Number.isInteger(value) || value < 1) throw new TypeError(`reader: referenceBounds.${name} must be a positive whole number, got ${String(value)}`);
  }
  const githubWebUrl = (options.githubWebUrl ?? 'https://github.com').replace(/\/+$/, '');
  try {
    new URL(githubWebUrl);
  } catch {
    throw new TypeError(`reader: githubWebUrl must be a URL, got ${githubWebUrl}`);
  }
  if (options.queueUnseen !== undefined && !['anonymous', 'tokens', 'off'].includes(options.queueUnseen)) {
    throw new TypeError(`reader: queueUnseen must be anonymous, tokens or off, got ${String(options.queueUnseen)}`);
  }
  const clock = options.now ? () => (options.now as () => Date)().getTime() : undefined;
  return {
    index: options.index,
    publisher: options.publisher,
    history: options.history,
    limits,
    githubWebUrl,
    access: options.access ?? publicOnly,
    now: options.now ?? (() => new Date()),
    logger: options.logger,
    sites: options.sites ?? [],
    backfillsQueued: new Map(),
    readHints: new ReadHints(),
    lookup: options.lookup,
    queueUnseen: options.queueUnseen ?? 'tokens',
    unseenLookups: unseenLimiter(options.unseenLookupsPerMinute, clock),
    anonymousLookups: new DailyBudget(options.anonymousLookupsPerDay ?? ANONYMOUS_LOOKUPS_PER_DAY, clock ?? Date.now),
    anonymousBackfillCap: options.anonymousBackfillCap ?? ANONYMOUS_BACKFILL_CAP,
    searchContents: new PromiseLru<string>({ maxEntries: SEARCH_CACHE_FILES, maxBytes: limits.searchCacheBytes }),
    references: options.references ?? poolReferenceParsing(),
    referenceBounds: { ...REFERENCE_BOUNDS, ...options.referenceBounds },
    referenceCache: new PromiseLru<ParsedReferences>(REFERENCE_CACHE),
    watchers: new RepositoryWatchers((repositoryId) => options.index.listRefStates(repositoryId), {
      intervalMs: options.waitPollMs ?? DEFAULT_WAIT_POLL_MS,
      repeat: options.waitRepeat ?? repeatEvery,
      logger: options.logger,
    }),
  };
}
