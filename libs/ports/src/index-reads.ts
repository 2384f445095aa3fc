import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { FileSummary, FolderCount, FolderScope, IndexCallOptions, IndexStats, Snapshot, SuggestCandidate, SuggestQuery, VisibleEntry } from './index-types';
import type { ReadLookup, ReadLookupResult } from './read-lookup';

/**
 * What a reader asks the index: repositories, ref states and the files of a snapshot. Every
 * method takes a trailing IndexCallOptions, the one way a caller that gives up tells the
 * adapter to stop.
 */
export interface IndexReads {
  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null>;
  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null>;
  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]>;

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null>;
  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]>;
  /** findRepositoryByName, listRefStates and the newest versions of a path at once: one round trip where the engine is remote. */
  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult>;

  /** Every visible entry of a ref, in pages, in path order. */
  visibleEntries(snapshot: Snapshot, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<VisibleEntry[]>;
  /** The visible entries among these paths (missing ones are left out), in path order. */
  lookupEntries(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<VisibleEntry[]>;
  getFile(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileDocument | null>;
  /**
   * Visible files of at most `maxSize` bytes, each the whole document getFile answers for its
   * path, in path order after `afterPath`: a reader loads a snapshot's small files at once.
   */
  visibleFiles(snapshot: Snapshot, afterPath: string | null, limit: number, maxSize: number, options?: IndexCallOptions): Promise<FileDocument[]>;
  /** Subfolders of the scope with the number of files under each, in path order. */
  listFolders(scope: FolderScope, options?: IndexCallOptions): Promise<FolderCount[]>;
  /** Files of the scope in path order, after `afterPath`, with the total in the scope. */
  listFiles(scope: FolderScope, afterPath: string | null, limit: number, options?: IndexCallOptions): Promise<{ files: FileSummary[]; total: number }>;
  stats(snapshot: Snapshot, options?: IndexCallOptions): Promise<IndexStats>;
  suggestCandidates(snapshot: Snapshot, query: SuggestQuery, options?: IndexCallOptions): Promise<SuggestCandidate[]>;
  /** Visible paths holding this blob (where a moved file went). */
  findByBlobSha(snapshot: Snapshot, blobSha: string, limit: number, options?: IndexCallOptions): Promise<string[]>;
  /** The newest retired version of a path that is not visible any more. */
  findRetired(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSummary | null>;
  /** The paths findRetired answers for at this snapshot (a version retired at or before its generation): distinct, in path order, at most `limit`. */
  retiredPaths(snapshot: Snapshot, limit: number, options?: IndexCallOptions): Promise<string[]>;
  /** Which of these ref snapshots have a file at this path. */
  snapshotsWithPath(snapshots: Snapshot[], path: string, options?: IndexCallOptions): Promise<Snapshot[]>;
}
