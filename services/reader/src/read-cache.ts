import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { FileSummary, FolderCount, FolderScope, IndexStats, IndexStore, Snapshot, UnsearchableCount } from '@gitdex/ports';
import { PromiseLru, roughSize } from './promise-lru';
import { loadCatalogue, loadSummaries, type PathCatalogue } from './path-catalogue';

export interface ReadCacheOptions {
  /** How long repository and ref-state answers are reused: the most a read may lag a flip. */
  metadataTtlMs?: number;
  /** Snapshot answers (file versions, listings, stats) kept in memory. */
  maxEntries?: number;
  /** Rough memory those answers may take, in bytes. */
  maxBytes?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /**
   * Repositories and ref states used within this long are looked up again in the background
   * past half the reuse window, so a read never waits for them while an agent works on a
   * repository (two small requests per repository every 50–75 ms): a repository one of whose
   * snapshots had a second file read, a listing or a suggestion. 0 (default): off.
   */
  keepFreshMs?: number;
  /**
   * Once a second file of a ref's current snapshot is read, load its small files (up to
   * `maxFileBytes` each, `maxBytes` of answers in all) in the background, so the files an
   * agent reads next are answered from memory; a ref is loaded again at most every
   * `everyMs` (a busy ref flips on every push). Off when left out.
   */
  preload?: { maxFileBytes: number; maxBytes: number; everyMs: number };
  /**
   * On the first listing or suggestion of a ref's current snapshot, or its second file read, load its files (if it
   * has at most `maxFiles`) into a catalogue in memory, from which listings and suggestCandidates
   * are answered without the index (and findRetired, for the paths that never had a retired
   * version): paths first, for suggestions and folder listings, then, once a file listing
   * is asked, the summaries file listings need; at most `maxTotalFiles` files in all (the refs used least recently go
   * first), a ref loaded again at most every `everyMs`. Off when left out.
   */
  catalogue?: { maxFiles: number; maxTotalFiles: number; everyMs: number };
  /** Told of every load ahead when it ends (metrics; tests wait on it instead of on the clock). */
  onReadAhead?: (load: ReadAheadLoad) => void;
}

/** A load ahead that ended: a ref's small files, its catalogue, or the file summaries of its catalogue (for listings). */
export interface ReadAheadLoad {
  kind: 'files' | 'catalogue' | 'summaries';
  /** loaded; stopped (its snapshot stopped being current, or the budget was reached); failed (reads fall back to the index). */
  outcome: 'loaded' | 'stopped' | 'failed';
  repositoryId: number;
  ref: string;
  seconds: number;
}

/**
 * Lookups kept fresh at most (a repository's name and its ref states are two): 8 repositories
 * an agent or several are reading at once, at most 16 small requests every 50–75 ms. Others are
 * looked up when read, as without keepFreshMs.
 */
const KEEP_FRESH_MOST = 16;

/** Lookups of every repository (a search of all of them): as large as the installation, never refreshed in the background. */
const ALL_REPOSITORIES = new Set(['repos', 'states\0*']);

/** Files asked for a page when a snapshot's small files are loaded. */
const PRELOAD_PAGE = 500;

type SnapshotAnswer = FileDocument | null | FolderCount[] | { files: FileSummary[]; total: number } | IndexStats | UnsearchableCount;

/**
 * Keeps what reads ask again and again. What a snapshot holds never changes while it is
 * its ref's current state: file versions, listings, stats and the counts of files a search
 * skips are kept (least recently used dropped first, bounded in count and size) under the
 * ref, generation and commit of that state. Snapshots of older generations go straight to
 * the index, because pruning changes them and list_files detects an expired cursor by
 * asking; the commit in the key keeps a deleted and re-created ref (whose generations start
 * again) from meeting old answers.
 *
 * Repositories and ref states are reused for a moment (100 ms by default), so a burst of
 * calls costs the index one lookup each; past half that time a call starts a fresh lookup
 * in the background, so steady traffic never waits for one. lookupForRead (a repository,
 * its ref states and a file's versions in one round trip) answers from those when both are
 * still reused, leaving the file to getFile; else it asks the index and keeps the
 * repository and ref states it answered under the same rule. Everything else passes through.
 */
export function withReadCache(index: IndexStore, options: ReadCacheOptions = {}): IndexStore {
  const ttl = options.metadataTtlMs ?? 100;
  const now = options.now ?? Date.now;
  const keepFreshMs = options.keepFreshMs ?? 0;
  const metadata = new Map<string, Lookup>();
  const answers = new PromiseLru<SnapshotAnswer>({ maxEntries: options.maxEntries ?? 10_000, maxBytes: options.maxBytes ?? 64 * 1024 * 1024 });
  /** The served state of each ref as last answered by the index: repositoryId → ref → "generation commit". */
  const current = new Map<number, Map<string, string>>();

  /** Looks `hit` up again; the answer in hand serves until the fresh one arrives, and a failed refresh may be tried again. */
  const refresh = (key: string, hit: Lookup, at: number): void => {
    hit.refreshing = true;
    const next: Lookup = { at, value: hit.fetch(), fetch: hit.fetch, refreshing: false };
    next.value.then(
      () => {
        if (metadata.get(key) === hit) metadata.set(key, next);
      },
      () => {
        hit.refreshing = false;
      },
    );
  };

  // The lookups used last (at most KEEP_FRESH_MOST, least recently used first), with when: while
  // used within keepFreshMs they are refreshed past half their time, checked every quarter, so
  // the fresh answer has a quarter of the window to arrive before the old one expires. The timer
  // runs only while some are.
  const hot = new Map<string, number>();
  let keeper: NodeJS.Timeout | null = null;
  const keepFresh = (): void => {
    const at = now();
    for (const [key, usedAt] of hot) {
      if (at - usedAt >= keepFreshMs || !isAtWork(key)) {
        hot.delete(key);
        continue;
      }
      const hit = metadata.get(key);
      if (hit && at - hit.at >= ttl / 2 && !hit.refreshing) refresh(key, hit, at);
    }
    if (hot.size === 0 && keeper !== null) {
      clearInterval(keeper);
      keeper = null;
    }
  };
  // Repositories an agent worked on within keepFreshMs (a second file read of a snapshot, a
  // listing, a suggestion), with when, and the ids of names looked up: only their lookups are
  // kept fresh. A client that reads one file of each repository again and again (a freshness
  // probe) would otherwise keep 16 lookups refreshed every 25 ms for as long as it polls.
  const atWork = new Map<number, number>();
  const idOfName = new Map<string, number>();
  const nameOfId = new Map<number, string>();
  /** Marks a repository worked on now, and its lookups (asked before it was) kept fresh from now on. */
  const working = (repositoryId: number): void => {
    if (atWork.size >= 10_000) atWork.clear();
    const at = now();
    atWork.set(repositoryId, at);
    use(`states\0${repositoryId}`, at);
    const name = nameOfId.get(repositoryId);
    if (name !== undefined) use(`name\0${name}`, at);
  };
  const knowName = (name: string, repositoryId: number): void => {
    if (idOfName.size >= 10_000) {
      idOfName.clear();
      nameOfId.clear();
    }
    idOfName.set(name, repositoryId);
    nameOfId.set(repositoryId, name);
  };
  const isAtWork = (key: string): boolean => {
    const [kind, rest = ''] = key.split('\0', 2);
    const id = kind === 'name' ? idOfName.get(rest) : Number(rest);
    const since = id === undefined ? undefined : atWork.get(id);
    return since !== undefined && now() - since < keepFreshMs;
  };
  /** Marks a lookup used at `at`: kept fresh from now on if its repository is being worked on, unless it lists every repository. */
  const use = (key: string, at: number): void => {
    if (keepFreshMs <= 0 || ALL_REPOSITORIES.has(key) || !isAtWork(key)) return;
    hot.delete(key);
    hot.set(key, at);
    if (hot.size > KEEP_FRESH_MOST) hot.delete(hot.keys().next().value as string);
    if (keeper === null) {
      keeper = setInterval(keepFresh, Math.max(1, Math.floor(ttl / 4)));
      keeper.unref?.();
    }
  };

  const fresh = <T>(key: string, fetch: () => Promise<T>): Promise<T> => {
    const at = now();
    const hit = metadata.get(key);
    if (hit && at - hit.at < ttl) {
      use(key, at);
      if (at - hit.at >= ttl / 2 && !hit.refreshing) refresh(key, hit, at);
      return hit.value as Promise<T>;
    }
    if (metadata.size >= 10_000) metadata.clear();
    const value = fetch();
    const entry: Lookup = { at, value, fetch, refreshing: false };
    metadata.set(key, entry);
    // A failed lookup is not kept: the next call asks the index again.
    value.catch(() => {
      if (metadata.get(key) === entry) metadata.delete(key);
    });
    use(key, at);
    return value;
  };

  const remember = (repositoryId: number, ref: string, state: RefState | null): void => {
    if (!state?.commitSha) {
      current.get(repositoryId)?.delete(ref);
      return;
    }
    let refs = current.get(repositoryId);
    if (!refs) current.set(repositoryId, (refs = new Map<string, string>()));
    refs.set(ref, `${state.generation} ${state.commitSha}`);
  };
  const learn = (states: RefState[], repositoryId?: number): RefState[] => {
    if (repositoryId === undefined) current.clear();
    else current.delete(repositoryId);
    for (const state of states) remember(state.repositoryId, state.ref, state);
    return states;
  };
  const learnOne = (repositoryId: number, ref: string, state: RefState | null): RefState | null => {
    remember(repositoryId, ref, state);
    return state;
  };

  /** Cache key prefix of a snapshot that is its ref's current state, else null (not cached). */
  const keyOf = (snapshot: Snapshot): string | null => {
    const served = current.get(snapshot.repositoryId)?.get(snapshot.ref);
    if (served === undefined || !served.startsWith(`${snapshot.generation} `)) return null;
    return `${snapshot.repositoryId}\0${snapshot.ref}\0${served}`;
  };
  const pinned = <T extends SnapshotAnswer>(snapshot: Snapshot, what: string, fetch: () => Promise<T>): Promise<T> => {
    const key = keyOf(snapshot);
    return key === null ? fetch() : (answers.get(`${key}\0${what}`, fetch) as Promise<T>);
  };

  /** A metadata answer still within the reuse window, without starting a refresh. */
  const within = (key: string): boolean => {
    const hit = metadata.get(key);
    return hit !== undefined && now() - hit.at < ttl;
  };
  /** A lookup asked at `at` as part of another request, kept as if it had been made on its own (and shared while in flight). */
  const seed = (key: string, at: number, value: Promise<unknown>, fetch: () => Promise<unknown>): void => {
    const hit = metadata.get(key);
    if (hit && hit.at > at) return;
    if (metadata.size >= 10_000) metadata.clear();
    const entry: Lookup = { at, value, fetch, refreshing: false };
    metadata.set(key, entry);
    value.catch(() => {
      if (metadata.get(key) === entry) metadata.delete(key);
    });
    use(key, at);
  };

  /** A load ahead starting now: call what it returns with its outcome when it ends. */
  const loadStarted = (kind: ReadAheadLoad['kind'], snapshot: Snapshot) => {
    const started = performance.now();
    return (outcome: ReadAheadLoad['outcome']): void => options.onReadAhead?.({ kind, outcome, repositoryId: snapshot.repositoryId, ref: snapshot.ref, seconds: (performance.now() - started) / 1000 });
  };

  // Snapshots whose small files were loaded (or are loading), by ref, with when.
  const preloaded = new Map<string, { key: string; at: number }>();
  /** Loads the small files of a ref's current snapshot into `answers`, as getFile would keep them one by one. */
  const preload = (snapshot: Snapshot): void => {
    const plan = options.preload;
    const key = keyOf(snapshot);
    if (!plan || key === null) return;
    const ref = `${snapshot.repositoryId}\0${snapshot.ref}`;
    const last = preloaded.get(ref);
    const at = now();
    if (last && (last.key === key || at - last.at < plan.everyMs)) return;
    if (preloaded.size >= 10_000) preloaded.clear();
    preloaded.set(ref, { key, at });
    const ended = loadStarted('files', snapshot);
    void (async () => {
      let bytes = 0;
      let after: string | null = null;
      // Stops at the budget, or once the snapshot is no longer its ref's current state.
      while (bytes < plan.maxBytes && keyOf(snapshot) === key) {
        // Each page after the calls waiting to run: an in-process index answers synchronously,
        // and the loop would otherwise hold the event loop (and the read that started it) for every page.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const page = await index.visibleFiles(snapshot, after, PRELOAD_PAGE, plan.maxFileBytes);
        for (const doc of page) {
          bytes += roughSize(doc);
          void answers.get(`${key}\0file\0${doc.path}`, () => Promise.resolve(doc));
        }
        if (page.length < PRELOAD_PAGE) return 'loaded';
        after = (page[page.length - 1] as FileDocument).path;
      }
      return 'stopped';
    })().then(ended, () => {
      // Nothing is lost: reads ask the index file by file, as without a preload; a later read may load it again.
      if (preloaded.get(ref)?.key === key) preloaded.delete(ref);
      ended('failed');
    });
  };

  // Path catalogues by ref (least recently used first), each for one snapshot: ready once loaded.
  const catalogues = new Map<string, CatalogueEntry>();
  /**
   * The loaded catalogue of a ref's current snapshot, else null (and its load started, unless the ref was loaded less
   * than everyMs ago). A file listing (`forFiles`) also has the summaries of its files loaded, once the catalogue is:
   * a session that only suggests never pays for them (on a large repository, ten times the load of the paths).
   */
  const catalogueOf = (snapshot: Snapshot, forFiles = false): PathCatalogue | null => {
    working(snapshot.repositoryId);
    const plan = options.catalogue;
    const key = keyOf(snapshot);
    if (!plan || key === null) return null;
    const ref = `${snapshot.repositoryId}\0${snapshot.ref}`;
    const last = catalogues.get(ref);
    if (last) {
      catalogues.delete(ref);
      catalogues.set(ref, last);
      if (last.key === key) {
        last.listed ||= forFiles;
        if (last.ready && last.listed) summarise(last, snapshot);
        return last.ready;
      }
      if (now() - last.at < plan.everyMs) return null;
    }
    const mine = () => catalogues.get(ref) === entry;
    const entry: CatalogueEntry = { key, at: now(), ready: null, listed: forFiles, summarising: false, stillWanted: () => mine() && keyOf(snapshot) === key };
    catalogues.set(ref, entry);
    if (catalogues.size > 1_000) catalogues.delete(catalogues.keys().next().value as string);
    const ended = loadStarted('catalogue', snapshot);
    void loadCatalogue(index, snapshot, { maxFiles: plan.maxFiles, stillWanted: entry.stillWanted }).then(
      (catalogue) => {
        if (!mine()) return ended('stopped');
        entry.ready = catalogue;
        // Within the budget: the refs used least recently give way.
        let total = 0;
        for (const other of catalogues.values()) total += other.ready?.size ?? 0;
        for (const [otherRef, other] of catalogues) {
          if (total <= plan.maxTotalFiles || other === entry) break;
          total -= other.ready?.size ?? 0;
          catalogues.delete(otherRef);
        }
        ended(catalogue ? 'loaded' : 'stopped');
        if (entry.listed) summarise(entry, snapshot);
      },
      // Nothing is lost: suggestions ask the index, as without a catalogue; a later call may load it again.
      () => {
        if (mine()) catalogues.delete(ref);
        ended('failed');
      },
    );
    return null;
  };

  /** Loads the summaries of a loaded catalogue's files, once: until all are in, file listings ask the index. */
  const summarise = (entry: CatalogueEntry, snapshot: Snapshot): void => {
    if (!entry.ready || entry.summarising || entry.ready.listsFiles) return;
    entry.summarising = true;
    const ended = loadStarted('summaries', snapshot);
    loadSummaries(index, entry.ready, snapshot, entry.stillWanted).then(
      (complete) => ended(complete ? 'loaded' : 'stopped'),
      // Nothing is lost: file listings ask the index, as before; the next one may load them again.
      () => {
        entry.summarising = false;
        ended('failed');
      },
    );
  };

  // The first file read of each ref's current snapshot. Reads ahead start with a second, other
  // file: an agent at work reads several, while a client that reads one file of every new
  // snapshot (a freshness probe, a CI check polling a status file) would otherwise load a whole
  // repository on every push, and on a busy installation keep the index loading all the time.
  const firstReads = new Map<string, { key: string; path: string }>();
  const readAhead = (snapshot: Snapshot, path: string): void => {
    const key = keyOf(snapshot);
    if (key === null) return;
    const ref = `${snapshot.repositoryId}\0${snapshot.ref}`;
    const first = firstReads.get(ref);
    if (first?.key !== key) {
      if (firstReads.size >= 10_000) firstReads.clear();
      firstReads.set(ref, { key, path });
      return;
    }
    if (first.path === path) return;
    working(snapshot.repositoryId);
    preload(snapshot);
    catalogueOf(snapshot);
  };

  const cached: Partial<IndexStore> = {
    suggestCandidates: (snapshot, query) => {
      const catalogue = catalogueOf(snapshot);
      return catalogue ? Promise.resolve(catalogue.candidates(query)) : index.suggestCandidates(snapshot, query);
    },
    findRetired: (snapshot, path) => {
      const catalogue = catalogueOf(snapshot);
      return catalogue && !catalogue.mayBeRetired(path) ? Promise.resolve(null) : index.findRetired(snapshot, path);
    },
    getFile: (snapshot, path) => {
      readAhead(snapshot, path);
      return pinned(snapshot, `file\0${path}`, () => index.getFile(snapshot, path));
    },
    listFolders: (scope) => {
      const catalogue = catalogueOf(scope);
      return catalogue ? Promise.resolve(catalogue.listFolders(scope)) : pinned(scope, `folders\0${scopeKey(scope)}`, () => index.listFolders(scope));
    },
    listFiles: (scope, afterPath, limit) => {
      const catalogue = catalogueOf(scope, true);
      if (catalogue?.listsFiles) return Promise.resolve(catalogue.listFiles(scope, afterPath, limit));
      return pinned(scope, `files\0${scopeKey(scope)}\0${afterPath === null ? '-' : `+${afterPath}`}\0${limit}`, () => index.listFiles(scope, afterPath, limit));
    },
    stats: (snapshot) => pinned(snapshot, 'stats', () => index.stats(snapshot)),
    // A search asks for these counts every time, beside its candidates; they are a snapshot's, like its stats.
    countUnsearchable: (snapshot, scope) => {
      const shared = { includeGenerated: scope.includeGenerated, ...(scope.language !== undefined ? { language: scope.language } : {}) };
      return pinned(snapshot, `unsearchable\0${shared.includeGenerated}\0${shared.language === undefined ? '*' : `=${shared.language}`}`, () => index.countUnsearchable(snapshot, shared));
    },
    findRepositoryByName: (name) =>
      fresh<RepositoryDocument | null>(`name\0${name}`, async () => {
        const repository = await index.findRepositoryByName(name);
        if (repository) knowName(name, repository.repositoryId);
        return repository;
      }),
    getRepository: (id) => fresh<RepositoryDocument | null>(`repo\0${id}`, () => index.getRepository(id)),
    listRepositories: () => fresh<RepositoryDocument[]>('repos', () => index.listRepositories()),
    listRefStates: (id) => fresh<RefState[]>(`states\0${id ?? '*'}`, async () => learn(await index.listRefStates(id), id)),
    getRefState: async (id, ref) => learnOne(id, ref, await index.getRefState(id, ref)),
    lookupForRead: async (request) => {
      const nameKey = `name\0${request.fullName}`;
      const statesKey = `states\0${request.repositoryId}`;
      knowName(request.fullName, request.repositoryId);
      if (within(nameKey) && within(statesKey)) {
        // Both reused under the usual rule; the file is left to getFile, whose answers are kept per snapshot.
        const [repository, refStates] = await Promise.all([cached.findRepositoryByName!(request.fullName), cached.listRefStates!(request.repositoryId)]);
        return { repository, refStates, versions: null };
      }
      // The window counts from when the lookups were asked, as for lookups made one by one.
      const at = now();
      const answer = index.lookupForRead(request).then((found) => {
        learn(found.refStates, request.repositoryId);
        const state = request.versions && found.refStates.find((candidate) => candidate.ref === request.versions?.ref);
        const read = state && request.versions ? { ...state, path: request.versions.path } : null;
        if (read) readAhead({ repositoryId: request.repositoryId, ref: read.ref, generation: read.generation }, read.path);
        return found;
      });
      seed(
        nameKey,
        at,
        answer.then((found) => found.repository),
        () => index.findRepositoryByName(request.fullName),
      );
      seed(
        statesKey,
        at,
        answer.then((found) => found.refStates),
        async () => learn(await index.listRefStates(request.repositoryId), request.repositoryId),
      );
      return answer;
    },
  };
  // Methods that pass through are bound once, not on every call.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(index, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in cached) return cached[property as keyof IndexStore];
      if (bound.has(property)) return bound.get(property);
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, method);
      return method;
    },
  });
}

/** A ref's catalogue, for one snapshot of it. */
interface CatalogueEntry {
  key: string;
  /** When its load started. */
  at: number;
  /** The loaded catalogue; null while loading, or when the snapshot had too many files. */
  ready: PathCatalogue | null;
  /** A file listing was asked: the summaries are wanted. */
  listed: boolean;
  /** The summaries are loading or loaded (or stopped: the index moved on). */
  summarising: boolean;
  /** Whether the load is still worth going on with: the entry is still the ref's, and its snapshot still current. */
  stillWanted: () => boolean;
}

/** A repository or ref-state lookup kept for the reuse window. */
interface Lookup {
  /** When it was asked: it is reused until `at + ttl`. */
  at: number;
  value: Promise<unknown>;
  /** How to ask it again. */
  fetch: () => Promise<unknown>;
  refreshing: boolean;
}

function scopeKey(scope: FolderScope): string {
  return `${scope.folder}\0${scope.depth}`;
}
