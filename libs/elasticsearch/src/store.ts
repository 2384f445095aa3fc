import type { Client } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';
import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type {
  ExactSymbolQuery,
  SymbolPage,
  ContentCandidate,
  ContentPlan,
  ContentScope,
  UnsearchableCount,
  UnsearchableScope,
  FileContent,
  FileSummary,
  FileWrite,
  FolderCount,
  FolderScope,
  IndexCallOptions,
  IndexStats,
  IndexStore,
  ReadLookup,
  ReadLookupResult,
  Snapshot,
  SuggestCandidate,
  SuggestQuery,
  VisibleEntry,
  FileSymbols,
  SymbolHit,
  SymbolNameQuery,
  SymbolScope,
} from '@gitdex/ports';
import type { BlobSymbols, SymbolKind } from '@gitdex/contracts';
import type { BulkContext } from './bulk';
import { BodyBuffers } from './bulk-body';
import * as catalog from './catalog';
import * as contentSearch from './content-search';
import type { StoreContext } from './context';
import { toPortError } from './errors';
import * as reads from './file-reads';
import * as writes from './file-writes';
import * as listings from './listings';
import * as symbolReads from './symbol-reads';
import { rankedSymbols } from './symbol-ranking';
import * as readLookup from './read-lookup';
import { indexNames, type IndexKind } from './mappings';
import { createClient, resolveOptions, type ElasticsearchIndexStoreOptions } from './options';
import { ensureIndices, reindex, verifyIndices, type ReindexResult } from './setup';
import { SymbolNameList } from './symbol-name-list';
import { migrateSymbols, type SymbolMigrationProgress, type SymbolMigrationRun } from './symbol-migration';
import { OneRun } from './one-run';
import { blobMigrationStatus, migrateBlobs, type BlobMigrationRun, type BlobMigrationStatus, type MigrationProgress } from './blob-migration';

/** How long ping() waits: a health probe must answer fast, whatever the request timeout. */
const PING_TIMEOUT_MS = 2_000;

/**
 * The index port on Elasticsearch 9. File versions live behind `${prefix}-files` as entries
 * naming their blob, each blob's content once per repository behind `${prefix}-blobs`
 * (docs/design/blob-storage.md), repositories and ref states behind `${prefix}-repos`. File writes are not refreshed
 * (call refresh() before a flip); repository and ref-state writes are, so a flip is
 * visible to the next search at once.
 */
export class ElasticsearchIndexStore implements IndexStore {
  private readonly ctx: StoreContext;
  private readonly ownsClient: boolean;
  /** False: an operator manages templates, indices and mappings (deploy/elasticsearch); ensureReady only checks them. */
  private readonly manageTemplates: boolean;
  private readonly onMigrationProgress: MigrationProgress | undefined;
  /** The background blob migration this process runs, once it wrote (see startBlobMigration). */
  private readonly blobRun = new OneRun<BlobMigrationRun>();
  /** The background symbol migration this process runs, once it wrote (see startSymbolMigration). */
  private readonly symbolRun = new OneRun<SymbolMigrationRun>();

  constructor(options: ElasticsearchIndexStoreOptions & { manageTemplates?: boolean | undefined }) {
    const resolved = resolveOptions(options);
    const joinLimit = options.searchShaJoinLimit;
    if (joinLimit !== undefined && (!Number.isInteger(joinLimit) || joinLimit < 0)) {
      throw new PortError('INVALID', `searchShaJoinLimit must be a whole number of 0 or more, not ${joinLimit}`);
    }
    const client = options.client ?? createClient(resolved);
    this.ownsClient = options.client === undefined;
    this.manageTemplates = options.manageTemplates ?? true;
    this.onMigrationProgress = options.onMigrationProgress;
    const bulk: BulkContext = {
      client,
      nodeLabel: resolved.nodeLabel,
      prefix: resolved.indexPrefix,
      maxOperations: resolved.bulkMaxOperations,
      bodies: new BodyBuffers(resolved.bulkMaxBytes),
      retries: resolved.bulkRetries,
      backoffMs: resolved.bulkBackoffMs,
      bulkTimeoutMs: resolved.bulkTimeoutMs,
      replicas: resolved.replicas,
    };
    const blobs = indexNames(resolved.indexPrefix, 'blobs').alias;
    this.ctx = {
      ...bulk,
      files: indexNames(resolved.indexPrefix, 'files').alias,
      repos: indexNames(resolved.indexPrefix, 'repos').alias,
      blobs,
      names: new SymbolNameList(bulk, blobs),
      shaJoinLimit: options.searchShaJoinLimit ?? contentSearch.SHA_JOIN_LIMIT,
    };
  }

  /** The client, for tooling (e.g. deleting test indices). */
  get client(): Client {
    return this.ctx.client;
  }

  private async call<T>(action: string, body: (ctx: StoreContext) => Promise<T>): Promise<T> {
    try {
      return await body(this.ctx);
    } catch (error) {
      throw toPortError(error, this.ctx.nodeLabel, action);
    }
  }

  /**
   * A read for a caller that may give up: not sent once its signal is aborted, and the
   * client aborts its requests when it is (readOptions); it then fails with the signal's
   * reason, not as an unreachable engine.
   */
  private async read<T>(action: string, options: IndexCallOptions | undefined, body: (ctx: StoreContext) => Promise<T>): Promise<T> {
    const signal = options?.signal;
    if (!signal) return this.call(action, body);
    signal.throwIfAborted();
    try {
      return await this.call(action, (ctx) => body({ ...ctx, signal }));
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw error;
    }
  }

  ensureReady(): Promise<void> {
    if (!this.manageTemplates) return this.call('ensureReady', (ctx) => verifyIndices(ctx.client, ctx.prefix));
    return this.call('ensureReady', (ctx) => ensureIndices(ctx.client, ctx.prefix, ctx.replicas));
  }

  /**
   * The health of gitdex's own indices, not the cluster's: on a shared cluster another team's
   * red index must not take gitdex down. Cluster health, not `HEAD /`: the minimal distribution
   * does not serve the root endpoint. A red index (shards still recovering) refuses writes, so
   * it counts as down; so does a missing one (Elasticsearch answers 408 after the timeout).
   */
  async ping(): Promise<boolean> {
    try {
      const index = [this.ctx.files, this.ctx.repos, this.ctx.blobs];
      const health = await this.ctx.client.cluster.health({ index, timeout: '1s' }, { requestTimeout: PING_TIMEOUT_MS, maxRetries: 0 });
      return health.status !== 'red';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.ctx.client.close();
  }

  /**
   * Moves entries the previous release wrote with their content inline into blobs, online
   * (blob-migration.ts); answers at once when there is nothing to move. Reads answer throughout.
   */
  migrateBlobs(onProgress?: MigrationProgress): Promise<BlobMigrationRun> {
    return this.blobRun.track(this.call('migrateBlobs', (ctx) => migrateBlobs(ctx, onProgress ?? this.onMigrationProgress)));
  }

  /**
   * Whether the blob migration is done, and how many entries it moved (kept in the files index;
   * a count, not a guarantee: processes migrating at once each add their own).
   */
  blobMigrationStatus(): Promise<BlobMigrationStatus> {
    return this.call('blobMigrationStatus', (ctx) => blobMigrationStatus(ctx));
  }

  /**
   * Starts the blob migration in the background, once per process, from the first write: the
   * process that writes is the one that migrates, and no operator starts it. A failed run is
   * started again by the next write; a finished one answers at once (its _meta says done).
   */
  private startBlobMigration(): void {
    if (!this.blobRun.current) void this.migrateBlobs();
  }

  /**
   * Gives symbols documents of the previous layout their name documents, online
   * (symbol-migration.ts); one search when there are none. Reads answer throughout.
   */
  migrateSymbols(onProgress?: SymbolMigrationProgress): Promise<SymbolMigrationRun> {
    return this.symbolRun.track(this.call('migrateSymbols', (ctx) => migrateSymbols(ctx, onProgress)));
  }

  /** Started in the background from the first write, as the blob migration is: no operator step. */
  private startSymbolMigration(): void {
    if (!this.symbolRun.current) void this.migrateSymbols();
  }

  /** The background symbol migration this process started, if any (tests and shutdown wait for it). */
  symbolMigration(): Promise<SymbolMigrationRun> | null {
    return this.symbolRun.current;
  }

  /** The background migration this process started, if any (tests and shutdown wait for it). */
  blobMigration(): Promise<BlobMigrationRun> | null {
    return this.blobRun.current;
  }

  /** Copies the documents behind an alias into this build's mapping version and swaps the alias. */
  reindex(kind: IndexKind, options: { rebuild?: boolean } = {}): Promise<ReindexResult> {
    return this.call('reindex', (ctx) => reindex(ctx, kind, options));
  }

  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('getRepository', options, (ctx) => catalog.getRepository(ctx, repositoryId));
  }

  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.read('findRepositoryByName', options, (ctx) => catalog.findRepositoryByName(ctx, fullName));
  }

  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]> {
    return this.read('listRepositories', options, (ctx) => catalog.listRepositories(ctx));
  }

  putRepository(repository: RepositoryDocument): Promise<void> {
    return this.call('putRepository', (ctx) => catalog.putRepository(ctx, repository));
  }

  deleteRepository(repositoryId: number): Promise<void> {
    return this.call('deleteRepository', async (ctx) => {
      await writes.deleteRepositoryFiles(ctx, repositoryId);
      await ctx.names.deleteRepository(repositoryId);
      await catalog.deleteRepositoryEntries(ctx, repositoryId);
    });
  }

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null> {
    return this.read('getRefState', options, (ctx) => catalog.getRefState(ctx, repositoryId, ref));
  }

  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]> {
    return this.read('listRefStates', options, (ctx) => catalog.listRefStates(ctx, repositoryId));
  }

  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult> {
    return this.read('lookupForRead', options, (ctx) => readLookup.lookupForRead(ctx, request));
  }

  putRefState(state: RefState): Promise<void> {
    return this.call('putRefState', (ctx) => catalog.putRefState(ctx, state));
  }

  deleteRef(repositoryId: number, ref: string): Promise<void> {
    return this.call('deleteRef', async (ctx) => {
      await writes.deleteRefFiles(ctx, repositoryId, ref);
      await catalog.deleteRefState(ctx, repositoryId, ref);
    });
  }

  writeFiles(fileWrites: FileWrite[]): Promise<void> {
    this.startBlobMigration();
    this.startSymbolMigration();
    return this.call('writeFiles', (ctx) => writes.writeFiles(ctx, fileWrites));
  }

  discardAfter(snapshot: Snapshot): Promise<void> {
    return this.call('discardAfter', (ctx) => writes.discardAfter(ctx, snapshot));
  }

  pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void> {
    return this.call('pruneRetired', (ctx) => writes.pruneRetired(ctx, repositoryId, ref, generation));
  }

  refresh(): Promise<void> {
    return this.call('refresh', async (ctx) => {
      await ctx.names.ready();
      await ctx.client.indices.refresh({ index: [ctx.files, ctx.repos, ctx.blobs, ctx.names.index] });
    });
  }

  visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.read('visibleEntries', options, (ctx) => reads.visibleEntries(ctx, snapshot, afterPath, limit));
  }

  lookupEntries(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.read('lookupEntries', options, (ctx) => reads.lookupEntries(ctx, snapshot, paths));
  }

  getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null> {
    return this.read('getFile', options, (ctx) => reads.getFile(ctx, snapshot, path));
  }

  visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number, options?: IndexCallOptions): Promise<FileDocument[]> {
    return this.read('visibleFiles', options, (ctx) => reads.visibleFiles(ctx, snapshot, afterPath, limit, maxSize));
  }

  listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]> {
    return this.read('listFolders', options, (ctx) => listings.listFolders(ctx, scope));
  }

  listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }> {
    return this.read('listFiles', options, (ctx) => listings.listFiles(ctx, scope, afterPath, limit));
  }

  stats(snapshot: Snapshot, options?: IndexCallOptions): Promise<IndexStats> {
    return this.read('stats', options, (ctx) => listings.stats(ctx, snapshot));
  }

  suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]> {
    return this.read('suggestCandidates', options, (ctx) => reads.suggestCandidates(ctx, snapshot, query));
  }

  findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('findByBlobSha', options, (ctx) => reads.findByBlobSha(ctx, snapshot, blobSha, limit));
  }

  findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null> {
    return this.read('findRetired', options, (ctx) => reads.findRetired(ctx, snapshot, path));
  }

  retiredPaths(snapshot: Snapshot, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('retiredPaths', options, (ctx) => reads.retiredPaths(ctx, snapshot, limit));
  }

  snapshotsWithPath(snapshots: Snapshot[], path: string, options?: IndexCallOptions): Promise<Snapshot[]> {
    return this.read('snapshotsWithPath', options, (ctx) => reads.snapshotsWithPath(ctx, snapshots, path));
  }

  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.read('searchCandidates', options, (ctx) => contentSearch.searchCandidates(ctx, snapshot, plan, scope));
  }

  unsearchableFiles(snapshot: Snapshot, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.read('unsearchableFiles', options, (ctx) => contentSearch.unsearchableFiles(ctx, snapshot, scope));
  }

  countUnsearchable(snapshot: Snapshot, scope: UnsearchableScope, options?: IndexCallOptions): Promise<UnsearchableCount> {
    return this.read('countUnsearchable', options, (ctx) => contentSearch.countUnsearchable(ctx, snapshot, scope));
  }

  readContents(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<FileContent[]> {
    return this.read('readContents', options, (ctx) => contentSearch.readContents(ctx, snapshot, paths));
  }

  findSymbols(snapshots: Snapshot[], query: SymbolNameQuery & SymbolScope & { kind?: SymbolKind; limit: number }, options?: IndexCallOptions): Promise<SymbolHit[]> {
    return this.read('findSymbols', options, (ctx) => symbolReads.findSymbols(ctx, snapshots, query));
  }

  rankedSymbols(snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }, options?: IndexCallOptions): Promise<SymbolPage> {
    return this.read('rankedSymbols', options, (ctx) => rankedSymbols(ctx, snapshots, query));
  }

  fileSymbols(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSymbols | null> {
    return this.read('fileSymbols', options, (ctx) => symbolReads.fileSymbols(ctx, snapshot, path));
  }

  symbolNamesLike(snapshots: Snapshot[], name: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.read('symbolNamesLike', options, (ctx) => symbolReads.symbolNamesLike(ctx, snapshots, name, limit));
  }

  storedSymbols(blobs: { blobSha: string; language: string | null }[], extractor: number): Promise<Map<string, BlobSymbols>> {
    return this.call('storedSymbols', (ctx) => symbolReads.storedSymbols(ctx, blobs, extractor));
  }
}
