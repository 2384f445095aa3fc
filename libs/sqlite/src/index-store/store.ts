import Database from 'better-sqlite3';
import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import {
  PortError,
  type ContentCandidate,
  type ContentPlan,
  type ContentScope,
  type UnsearchableCount,
  type UnsearchableScope,
  type FileContent,
  type FileSummary,
  type FileWrite,
  type FolderCount,
  type FolderScope,
  type IndexCallOptions,
  type IndexStats,
  type IndexStore,
  type ReadLookup,
  type ReadLookupResult,
  type Snapshot,
  type SuggestCandidate,
  type SuggestQuery,
  type VisibleEntry,
  type FileSymbols,
  type SymbolHit,
  type ExactSymbolQuery,
  type SymbolPage,
  type SymbolNameQuery,
  type SymbolScope,
} from '@gitdex/ports';
import type { BlobSymbols, SymbolKind } from '@gitdex/contracts';
import { silentLog, type Log } from '@gitdex/observability';
import { prepareBlobMigration, type BlobMigration, type BlobMigrationProgress } from './blob-migration';
import * as contentSearch from './content-search';
import { toPortError } from './errors';
import * as writes from './file-writes';
import { configureConnection, ensureSchema } from './schema';
import * as reads from './snapshot-reads';
import { prepareStatements, type Statements } from './statements';
import { layeredSuggestArgs, prepareSuggestStatements, suggest, type SuggestStatements } from './suggest';
import * as symbolReads from './symbol-reads';
import { LAYERED } from './visibility';
import { layeredView, prepareLayeredStatements, type LayeredStatements, type SnapshotView } from './layered-statements';

export interface SqliteIndexStoreOptions {
  /** Database file, created if missing; ':memory:' for a throw-away index. */
  file: string;
  /**
   * Suggestion terms in more files than this are scored by lookups on the candidates of
   * the rarer terms instead of by summing their postings (exact either way). Default 2,048.
   */
  suggestFrequentTermFiles?: number;
  /**
   * A file written by layout 5 or older has its rows moved to blobs in the background, this
   * many rows per transaction (default 100), reads answering between batches. False leaves
   * the moving to `migrateBlobs` (tests that read at a chosen point of the migration).
   */
  migrateInBackground?: boolean;
  migrationBatch?: number;
  /** Where the blob migration tells its progress. */
  log?: Log;
}

/** listFolders never answers more folders than this (the port's rule). */
export { MAX_FOLDERS } from '@gitdex/ports';

/**
 * The index port on one SQLite file (better-sqlite3): the embedded adapter for a single
 * process. better-sqlite3 is synchronous; the methods stay async to honour the port and
 * turn every failure into a rejected PortError.
 */
export class SqliteIndexStore implements IndexStore {
  private readonly file: string;
  private readonly db: Database.Database;
  private statements: Statements | undefined;
  private suggestStatements: SuggestStatements | undefined;
  private contentStatements: contentSearch.ContentStatements | undefined;
  private layered: LayeredStatements | undefined;
  private symbolStatements: { plain: symbolReads.SymbolStatements; layered?: symbolReads.SymbolStatements } | undefined;
  private readonly frequentTermFiles: number;
  private migration: BlobMigration | undefined;
  private readonly migrationProgress: BlobMigrationProgress = { migrated: 0, remaining: 0 };
  private migrationTimer: NodeJS.Immediate | undefined;
  private readonly migrateInBackground: boolean;
  private readonly migrationBatch: number;
  private readonly log: Log;

  constructor(options: SqliteIndexStoreOptions) {
    if (!options || typeof options.file !== 'string' || options.file === '') {
      throw new PortError('INVALID', 'SqliteIndexStore needs options.file (a path, or ":memory:")');
    }
    this.file = options.file;
    this.frequentTermFiles = options.suggestFrequentTermFiles ?? 2048;
    this.migrateInBackground = options.migrateInBackground ?? true;
    this.migrationBatch = options.migrationBatch ?? 100;
    this.log = options.log ?? silentLog;
    try {
      this.db = new Database(options.file);
      configureConnection(this.db);
    } catch (error) {
      // A file that cannot be opened (missing folder, not a database) is a configuration error.
      const mapped = toPortError(error, this.file, 'open');
      throw mapped.code === 'INTERNAL' ? new PortError('INVALID', mapped.message, { cause: error }) : mapped;
    }
  }

  /**
   * A read for a caller that may give up: refused with the signal's reason once it is
   * aborted. Each read is one synchronous run of statements (nothing can abort in between),
   * so a caller's loop of reads stops at its next read.
   */
  private read<T>(action: string, options: IndexCallOptions | undefined, body: (st: Statements) => T): Promise<T> {
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason as Error);
    return this.run(action, body);
  }

  /** Runs one call: creates the schema on first use, maps failures to PortError. */
  private run<T>(action: string, body: (st: Statements) => T): Promise<T> {
    if (!this.db.open) {
      return Promise.reject(new PortError('UNAVAILABLE', `SQLite index ${this.file} is closed (${action})`));
    }
    try {
      if (!this.statements) {
        ensureSchema(this.db);
        this.statements = prepareStatements(this.db);
        this.suggestStatements = prepareSuggestStatements(this.db);
        this.contentStatements = contentSearch.prepareContentStatements(this.db);
        this.migration = prepareBlobMigration(this.db, this.statements);
        this.startMigration();
      }
      return Promise.resolve(body(this.statements));
    } catch (error) {
      return Promise.reject(toPortError(error, this.file, action));
    }
  }

  private scope(st: Statements, repositoryId: number, ref: string): number | undefined {
    return st.scopeId.get({ repositoryId, ref }) as number | undefined;
  }

  async ensureReady(): Promise<void> {
    await this.run('ensureReady', () => undefined);
  }

  async ping(): Promise<boolean> {
    try {
      return this.db.open && this.db.prepare('SELECT 1').pluck().get() === 1;
    } catch {
      return false;
    }
  }

  /** Counts the rows left to move, and moves them in the background when asked to. */
  private startMigration(): void {
    const remaining = (this.migration as BlobMigration).remaining();
    this.migrationProgress.remaining = remaining;
    if (remaining === 0) return;
    this.log.info({ file: this.file, remaining }, 'SQLite index: moving file contents to blobs (reads answer meanwhile)');
    if (this.migrateInBackground) this.migrationTimer = setImmediate(() => this.migrateInTurns());
  }

  private migrateInTurns(): void {
    this.migrationTimer = undefined;
    if (!this.db.open) return;
    try {
      const before = this.migrationProgress.migrated;
      const progress = this.migrateBatch(this.migrationBatch);
      const step = Math.max(this.migrationBatch, 10_000);
      if (progress.remaining === 0) this.log.info({ file: this.file, ...progress }, 'SQLite index: every file content is stored by blob');
      else if (Math.floor(progress.migrated / step) > Math.floor(before / step)) this.log.info({ file: this.file, ...progress }, 'SQLite index: moving file contents to blobs');
      if (progress.remaining > 0) this.migrationTimer = setImmediate(() => this.migrateInTurns());
    } catch (error) {
      // Left for the next open: the rows not moved keep answering in their old form.
      this.log.error({ file: this.file, error: error instanceof Error ? error.message : String(error) }, 'SQLite index: the blob migration stopped');
    }
  }

  private migrateBatch(limit: number): BlobMigrationProgress {
    const migration = this.migration as BlobMigration;
    const moved = migration.batch(limit);
    this.migrationProgress.migrated += moved;
    this.migrationProgress.remaining = moved < limit ? migration.remaining() : Math.max(0, this.migrationProgress.remaining - moved);
    return { ...this.migrationProgress };
  }

  /**
   * The blob migration's progress (rows of an older layout moved, and left), after moving
   * up to `limit` more rows in one transaction (none with 0).
   */
  migrateBlobs(limit = 0): Promise<BlobMigrationProgress> {
    return this.run('migrateBlobs', () => (limit > 0 ? this.migrateBatch(limit) : { ...this.migrationProgress }));
  }

  async close(): Promise<void> {
    if (this.migrationTimer) clearImmediate(this.migrationTimer);
    this.migrationTimer = undefined;
    if (this.db.open) this.db.close();
    this.statements = undefined;
    this.suggestStatements = undefined;
    this.contentStatements = undefined;
    this.layered = undefined;
    this.symbolStatements = undefined;
    this.migration = undefined;
  }

  // ── repositories and ref states ──────────────────────────────────────────

  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('getRepository', options, (st) => reads.parseOrNull<RepositoryDocument>(st.getRepository.get({ repositoryId })));
  }

  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('findRepositoryByName', options, (st) => reads.parseOrNull<RepositoryDocument>(st.findRepository.get({ name: fullName.toLowerCase() })));
  }

  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]> {
    return this.read('listRepositories', options, (st) => (st.listRepositories.all() as string[]).map((doc) => JSON.parse(doc) as RepositoryDocument));
  }

  putRepository(repository: RepositoryDocument): Promise<void> {
    return this.run('putRepository', (st) => {
      st.putRepository.run({ repositoryId: repository.repositoryId, name: repository.fullNameLower, doc: JSON.stringify(repository) });
    });
  }

  deleteRepository(repositoryId: number): Promise<void> {
    return this.run('deleteRepository', (st) =>
      this.db.transaction(() => {
        for (const s of st.scopesOfRepository.all({ repositoryId }) as number[]) writes.deleteScope(st, s);
        st.deleteRefStatesOf.run({ repositoryId });
        st.deleteRepository.run({ repositoryId });
      })(),
    );
  }

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null> {
    return this.read('getRefState', options, (st) => reads.parseOrNull<RefState>(st.getRefState.get({ repositoryId, ref })));
  }

  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]> {
    return this.read('listRefStates', options, (st) => {
      const docs = (repositoryId === undefined ? st.listRefStates.all() : st.listRefStatesOf.all({ repositoryId })) as string[];
      return docs.map((doc) => JSON.parse(doc) as RefState);
    });
  }

  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult> {
    return this.read('lookupForRead', options, (st) => reads.lookupForRead(st, (repositoryId, ref) => this.scope(st, repositoryId, ref), request));
  }

  putRefState(state: RefState): Promise<void> {
    return this.run('putRefState', (st) => {
      st.putRefState.run({ repositoryId: state.repositoryId, ref: state.ref, doc: JSON.stringify(state) });
    });
  }

  deleteRef(repositoryId: number, ref: string): Promise<void> {
    return this.run('deleteRef', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, repositoryId, ref);
        if (s !== undefined) writes.deleteScope(st, s);
        st.deleteRefState.run({ repositoryId, ref });
      })(),
    );
  }

  // ── file writes ──────────────────────────────────────────────────────────

  writeFiles(fileWrites: FileWrite[]): Promise<void> {
    return this.run('writeFiles', (st) =>
      this.db.transaction(() => {
        for (const write of fileWrites) {
          if (write.type === 'put') writes.putFile(st, write.document);
          else writes.retireFile(st, write);
        }
      })(),
    );
  }

  discardAfter(snapshot: Snapshot): Promise<void> {
    return this.run('discardAfter', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
        if (s !== undefined) writes.discardAfter(st, s, snapshot.generation);
      })(),
    );
  }

  pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void> {
    return this.run('pruneRetired', (st) =>
      this.db.transaction(() => {
        const s = this.scope(st, repositoryId, ref);
        if (s !== undefined) writes.pruneRetired(st, s, generation);
      })(),
    );
  }

  /** Every committed write is already visible to the next query. */
  refresh(): Promise<void> {
    return this.run('refresh', () => undefined);
  }

  // ── reads ────────────────────────────────────────────────────────────────

  /** A read of one snapshot's files: `none` when the ref has no files at all. */
  private atSnapshot<T>(action: string, options: IndexCallOptions | undefined, snapshot: Snapshot, none: T, body: (view: SnapshotView) => T): Promise<T> {
    return this.read(action, options, (st) => {
      const view = this.viewOf(st, snapshot);
      return view === null ? none : body(view);
    });
  }

  /** The statements a snapshot is read with: plain, or layered with its underlay bound (Snapshot.underlay). */
  private viewOf(st: Statements, snapshot: Snapshot): SnapshotView | null {
    if (snapshot.underlay) {
      this.layered ??= prepareLayeredStatements(this.db);
      return layeredView(this.layered, snapshot, (ref) => this.scope(st, snapshot.repositoryId, ref));
    }
    const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
    return s === undefined ? null : { st, content: this.content, s };
  }

  visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.atSnapshot('visibleEntries', options, snapshot, [], ({ st, s }) => reads.visibleEntries(st, s, snapshot.generation, afterPath, limit));
  }

  lookupEntries(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.atSnapshot('lookupEntries', options, snapshot, [], ({ st, s }) => reads.lookupEntries(st, s, snapshot.generation, paths));
  }

  getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null> {
    return this.atSnapshot('getFile', options, snapshot, null, ({ st, s }) => reads.getFile(st, s, snapshot.generation, path));
  }

  visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number, options?: IndexCallOptions): Promise<FileDocument[]> {
    return this.atSnapshot('visibleFiles', options, snapshot, [], ({ st, s }) => reads.visibleFiles(st, s, snapshot.generation, afterPath, limit, maxSize));
  }

  listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]> {
    return this.atSnapshot('listFolders', options, scope, [], ({ st, s }) => reads.listFolders(st, s, scope));
  }

  listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }> {
    return this.atSnapshot('listFiles', options, scope, { files: [], total: 0 }, ({ st, s }) => reads.listFiles(st, s, scope, afterPath, limit));
  }

  stats(snapshot: Snapshot, options?: IndexCallOptions): Promise<IndexStats> {
    return this.atSnapshot('stats', options, snapshot, reads.emptyStats(), ({ st, s }) => reads.stats(st, s, snapshot.generation));
  }

  /**
   * Exact score: +1 per distinct query trigram in the document's trigrams, +100 when the
   * name equals, +50 when the lower-cased path starts with the query path, +10 per distinct
   * query token in the document's tokens. Only scores > 0; score desc, then path.
   */
  suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]> {
    return this.atSnapshot('suggestCandidates', options, snapshot, [], ({ s, layeredSuggest }) => {
      if (query.limit <= 0) return [];
      if (query.trigrams.length === 0 && query.tokens.length === 0 && query.nameLower === '' && query.pathLower === '') return [];
      if (layeredSuggest) return layeredSuggest.all({ s, g: snapshot.generation, ...layeredSuggestArgs(query) });
      return suggest(this.suggestStatements as SuggestStatements, s, snapshot.generation, query, this.frequentTermFiles);
    });
  }

  findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.atSnapshot('findByBlobSha', options, snapshot, [], ({ st, s }) => reads.findByBlobSha(st, s, snapshot.generation, blobSha, limit));
  }

  findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null> {
    return this.atSnapshot('findRetired', options, snapshot, null, ({ st, s }) => reads.findRetired(st, s, snapshot.generation, path));
  }

  retiredPaths(snapshot: Snapshot, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.atSnapshot('retiredPaths', options, snapshot, [], ({ st, s }) => reads.retiredPaths(st, s, snapshot.generation, limit));
  }

  snapshotsWithPath(snapshots: Snapshot[], path: string, options?: IndexCallOptions): Promise<Snapshot[]> {
    return this.read('snapshotsWithPath', options, (st) => {
      if (snapshots.length === 0) return [];
      const list = snapshots.map(({ repositoryId, ref, generation }) => ({ repositoryId, ref, generation }));
      const plain = new Set(st.snapshotsWithPath.all({ snapshots: JSON.stringify(list), path }) as number[]);
      // A layered snapshot sees the path through its view (its own versions or its underlay's).
      return snapshots.filter((snapshot, index) => {
        if (!snapshot.underlay) return plain.has(index);
        const view = this.viewOf(st, snapshot);
        return view !== null && reads.lookupEntries(view.st, view.s, snapshot.generation, [path]).length > 0;
      });
    });
  }

  // ── search_code (ContentSearch) ──────────────────────────────────────────

  private get content(): contentSearch.ContentStatements {
    return this.contentStatements as contentSearch.ContentStatements;
  }

  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.atSnapshot('searchCandidates', options, snapshot, [], ({ content, s }) => contentSearch.searchCandidates(content, s, snapshot.generation, plan, scope));
  }

  unsearchableFiles(snapshot: Snapshot, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.atSnapshot('unsearchableFiles', options, snapshot, [], ({ content, s }) => contentSearch.unsearchableFiles(content, s, snapshot.generation, scope));
  }

  countUnsearchable(snapshot: Snapshot, scope: UnsearchableScope, options?: IndexCallOptions): Promise<UnsearchableCount> {
    return this.atSnapshot('countUnsearchable', options, snapshot, { binary: 0, tooLarge: 0 }, ({ content, s }) => contentSearch.countUnsearchable(content, s, snapshot.generation, scope));
  }

  readContents(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<FileContent[]> {
    return this.atSnapshot('readContents', options, snapshot, [], ({ content, s }) => contentSearch.readContents(content, s, snapshot.generation, paths));
  }

  // ── symbols ──────────────────────────────────────────────────────────────

  /**
   * The symbol statements a snapshot is read with and its parameters (its scope and
   * generation, and for a layered ref the underlay's); null when the ref has no files.
   */
  private symbolView(st: Statements, snapshot: Snapshot): { statements: symbolReads.SymbolStatements; params: Record<string, unknown> } | null {
    this.symbolStatements ??= { plain: symbolReads.prepareSymbolStatements(this.db) };
    const s = this.scope(st, snapshot.repositoryId, snapshot.ref);
    const under = snapshot.underlay;
    if (!under) return s === undefined ? null : { statements: this.symbolStatements.plain, params: { s, g: snapshot.generation } };
    const us = this.scope(st, snapshot.repositoryId, under.ref);
    if (s === undefined && us === undefined) return null;
    this.symbolStatements.layered ??= symbolReads.prepareSymbolStatements(this.db, LAYERED);
    const params = { s: s ?? -1, g: snapshot.generation, us: us ?? -1, ug: under.generation, shadowed: JSON.stringify(under.shadowed) };
    return { statements: this.symbolStatements.layered, params };
  }

  findSymbols(snapshots: Snapshot[], query: SymbolNameQuery & SymbolScope & { kind?: SymbolKind; limit: number }, options?: IndexCallOptions): Promise<SymbolHit[]> {
    return this.read('findSymbols', options, (st) => {
      const hits: SymbolHit[] = [];
      for (const [index, snapshot] of snapshots.entries()) {
        if (hits.length >= query.limit) break;
        const view = this.symbolView(st, snapshot);
        if (view) hits.push(...symbolReads.findSymbols(view.statements, symbolReads.withScope(view.params, query), index, query, query.limit - hits.length));
      }
      return hits;
    });
  }

  rankedSymbols(snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }, options?: IndexCallOptions): Promise<SymbolPage> {
    return this.read('rankedSymbols', options, (st) => {
      const page: SymbolPage = { hits: [], total: 0 };
      for (const [index, snapshot] of snapshots.entries()) {
        const view = this.symbolView(st, snapshot);
        if (!view) continue;
        const found = symbolReads.rankedSymbols(symbolReads.findSymbols(view.statements, symbolReads.withScope(view.params, query), index, query, Infinity), query.files);
        page.hits.push(...found.hits);
        page.total += found.total;
      }
      return page;
    });
  }

  fileSymbols(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSymbols | null> {
    return this.read('fileSymbols', options, (st) => {
      const view = this.symbolView(st, snapshot);
      return view ? symbolReads.fileSymbols(view.statements, view.params, path) : null;
    });
  }

  symbolNamesLike(snapshots: Snapshot[], name: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('symbolNamesLike', options, (st) => {
      // Candidates come from the list of every name ever stored (symbol-name-list.ts); one is
      // offered only where a visible file of the snapshots defines it.
      const views = snapshots.flatMap((snapshot) => {
        const view = this.symbolView(st, snapshot);
        return view ? [{ statements: view.statements, params: symbolReads.withScope(view.params, {}) }] : [];
      });
      const names: string[] = [];
      if (views.length === 0) return names;
      for (const candidate of st.names.candidates(name)) {
        if (names.length >= limit) break;
        if (views.some((view) => symbolReads.nameVisible(view.statements, view.params, candidate))) names.push(candidate);
      }
      return names;
    });
  }

  storedSymbols(blobs: { blobSha: string; language: string | null }[], extractor: number): Promise<Map<string, BlobSymbols>> {
    return this.run('storedSymbols', (st) => {
      const found = new Map<string, BlobSymbols>();
      for (const blob of blobs) {
        const symbols = st.symbols.stored(blob.blobSha, extractor, blob.language);
        if (symbols) found.set(blob.blobSha, symbols);
      }
      return found;
    });
  }
}
