import type { FileDocument, RefState, RepositoryDocument, SymbolKind } from '@gitdex/contracts';
import type {
  ContentCandidate,
  ContentPlan,
  ContentScope,
  FileContent,
  FileSymbols,
  FileSummary,
  FolderCount,
  FolderScope,
  IndexCallOptions,
  IndexStats,
  ReadLookup,
  ReadLookupResult,
  Snapshot,
  SuggestCandidate,
  SuggestQuery,
  SymbolHit,
  ExactSymbolQuery,
  SymbolPage,
  SymbolNameQuery,
  SymbolScope,
  UnsearchableCount,
  UnsearchableScope,
  VisibleEntry,
} from '@gitdex/ports';
import type { ReaderIndex } from './reader-index';

/**
 * A layer that hands every call to the index below it, each through `pass` with the call's
 * IndexCallOptions. A layer extends it and overrides the methods it changes (and `pass`, to
 * change how options travel). This class is the one place that lists the port's methods:
 * a new one is added here (its options passed on like the others), or nothing compiles.
 */
export class ForwardingIndex implements ReaderIndex {
  constructor(protected readonly inner: ReaderIndex) {}

  /** Runs one call on the index below with these options: as given, unless a layer decides otherwise. */
  protected pass<T>(options: IndexCallOptions | undefined, call: (options: IndexCallOptions | undefined) => Promise<T>): Promise<T> {
    return call(options);
  }

  ping(): Promise<boolean> {
    return this.pass(undefined, () => this.inner.ping());
  }

  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.pass(options, (o) => this.inner.getRepository(repositoryId, o));
  }

  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null> {
    return this.pass(options, (o) => this.inner.findRepositoryByName(fullName, o));
  }

  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]> {
    return this.pass(options, (o) => this.inner.listRepositories(o));
  }

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null> {
    return this.pass(options, (o) => this.inner.getRefState(repositoryId, ref, o));
  }

  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]> {
    return this.pass(options, (o) => this.inner.listRefStates(repositoryId, o));
  }

  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult> {
    return this.pass(options, (o) => this.inner.lookupForRead(request, o));
  }

  visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.pass(options, (o) => this.inner.visibleEntries(snapshot, afterPath, limit, o));
  }

  lookupEntries(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<VisibleEntry[]> {
    return this.pass(options, (o) => this.inner.lookupEntries(snapshot, paths, o));
  }

  getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null> {
    return this.pass(options, (o) => this.inner.getFile(snapshot, path, o));
  }

  visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number, options?: IndexCallOptions): Promise<FileDocument[]> {
    return this.pass(options, (o) => this.inner.visibleFiles(snapshot, afterPath, limit, maxSize, o));
  }

  listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]> {
    return this.pass(options, (o) => this.inner.listFolders(scope, o));
  }

  listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }> {
    return this.pass(options, (o) => this.inner.listFiles(scope, afterPath, limit, o));
  }

  stats(snapshot: Snapshot, options?: IndexCallOptions): Promise<IndexStats> {
    return this.pass(options, (o) => this.inner.stats(snapshot, o));
  }

  suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]> {
    return this.pass(options, (o) => this.inner.suggestCandidates(snapshot, query, o));
  }

  findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.pass(options, (o) => this.inner.findByBlobSha(snapshot, blobSha, limit, o));
  }

  findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null> {
    return this.pass(options, (o) => this.inner.findRetired(snapshot, path, o));
  }

  retiredPaths(snapshot: Snapshot, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.pass(options, (o) => this.inner.retiredPaths(snapshot, limit, o));
  }

  snapshotsWithPath(snapshots: Snapshot[], path: string, options?: IndexCallOptions): Promise<Snapshot[]> {
    return this.pass(options, (o) => this.inner.snapshotsWithPath(snapshots, path, o));
  }

  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.pass(options, (o) => this.inner.searchCandidates(snapshot, plan, scope, o));
  }

  unsearchableFiles(snapshot: Snapshot, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]> {
    return this.pass(options, (o) => this.inner.unsearchableFiles(snapshot, scope, o));
  }

  countUnsearchable(snapshot: Snapshot, scope: UnsearchableScope, options?: IndexCallOptions): Promise<UnsearchableCount> {
    return this.pass(options, (o) => this.inner.countUnsearchable(snapshot, scope, o));
  }

  readContents(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<FileContent[]> {
    return this.pass(options, (o) => this.inner.readContents(snapshot, paths, o));
  }

  findSymbols(snapshots: Snapshot[], query: SymbolNameQuery & SymbolScope & { kind?: SymbolKind; limit: number }, options?: IndexCallOptions): Promise<SymbolHit[]> {
    return this.pass(options, (o) => this.inner.findSymbols(snapshots, query, o));
  }

  rankedSymbols(snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }, options?: IndexCallOptions): Promise<SymbolPage> {
    return this.pass(options, (o) => this.inner.rankedSymbols(snapshots, query, o));
  }

  fileSymbols(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSymbols | null> {
    return this.pass(options, (o) => this.inner.fileSymbols(snapshot, path, o));
  }

  symbolNamesLike(snapshots: Snapshot[], name: string, limit: number, options?: IndexCallOptions): Promise<string[]> {
    return this.pass(options, (o) => this.inner.symbolNamesLike(snapshots, name, limit, o));
  }
}
