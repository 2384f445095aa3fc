import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { ContentCandidate, ContentPlan, ContentScope, FileContent, UnsearchableCount } from './content-search';

/**
 * Options of one read. signal: the caller gave up (deadline passed, request cancelled);
 * an adapter stops as soon as it can (checks it between statements, or aborts the request)
 * and rejects with the signal's reason. Optional everywhere: writers never pass one.
 */
export interface IndexCallOptions {
  signal?: AbortSignal;
}

/** A ref at one generation: what a reader sees, pinned. */
export interface Snapshot {
  repositoryId: number;
  ref: string;
  generation: number;
}

/** One change of the file documents of a ref, applied in bulk. */
export type FileWrite =
  | { type: 'put'; document: FileDocument }
  /** Hides the version of `path` that became visible at `fromGeneration`, from generation `atGeneration` on. */
  | { type: 'retire'; repositoryId: number; ref: string; path: string; fromGeneration: number; atGeneration: number };

/** The identity of a file version, enough to diff a ref against a new tree. */
export interface VisibleEntry {
  path: string;
  blobSha: string;
  kind: FileDocument['kind'];
  fromGeneration: number;
}

export interface FolderCount {
  path: string;
  fileCount: number;
}

/** Listing filter: entries below `folder` at most `depth` levels down. */
export interface FolderScope extends Snapshot {
  folder: string;
  depth: number;
}

export interface SuggestQuery {
  /** Lower-cased full query path, its name, tokens and name trigrams (see contracts/path-terms). */
  pathLower: string;
  nameLower: string;
  tokens: string[];
  trigrams: string[];
  limit: number;
}

/**
 * How every index adapter scores a suggestion candidate, so all return the same list:
 * one point per shared name trigram, plus these for an equal name, a path prefix and
 * each shared path token. The services re-rank the candidates; this only picks them.
 */
export const CANDIDATE_WEIGHTS = { trigram: 1, sameName: 100, pathPrefix: 50, token: 10 } as const;

export interface SuggestCandidate {
  path: string;
  blobSha: string;
  /** The engine's own relevance, only to order candidates before the ranking in TypeScript. */
  score: number;
}

export interface IndexStats {
  fileCount: number;
  languages: Record<string, number>;
  categories: Record<string, number>;
  totalBytes: number;
}

/**
 * What a read looks up before it reads, asked in one round trip (IndexStore.lookupForRead):
 * a repository by name, the ref states of the repository the name stood for when last
 * looked up (a guess: the caller checks the answer's repository id), and optionally the
 * newest versions of one path in one ref of it, from which the caller picks the version
 * visible at the ref state's generation (visibleVersion).
 */
export interface ReadLookup {
  /** Looked up exactly as findRepositoryByName(fullName). */
  fullName: string;
  /** Whose ref states to answer, as listRefStates(repositoryId). */
  repositoryId: number;
  versions?: VersionsLookup;
}

/** Versions of `path` in `ref` of the looked-up repository that may be visible at `since` or later. */
export interface VersionsLookup {
  ref: string;
  path: string;
  /** Leaves out versions retired at or before this generation (0: none left out). */
  since: number;
  /** How many, newest fromGeneration first. */
  limit: number;
}

export interface ReadLookupResult {
  repository: RepositoryDocument | null;
  refStates: RefState[];
  /**
   * Up to `limit` versions (whole documents, as getFile answers them), newest fromGeneration
   * first; null when not asked, or not looked up (a caching wrapper may leave the file to getFile).
   */
  versions: FileDocument[] | null;
}

/** Summary fields of a file without its content, for listings. */
export type FileSummary = Omit<FileDocument, 'content' | 'tokens' | 'trigrams' | 'contentBase64'>;

/**
 * The index port. Adapters translate these calls to their engine and decide nothing:
 * generations, diffs and ranking live in the services. Every write is idempotent.
 */
export interface IndexStore {
  /** Creates what the engine needs (templates, indices, tables); safe to call again. */
  ensureReady(): Promise<void>;
  /** Whether the engine answers right now. */
  ping(): Promise<boolean>;
  close(): Promise<void>;

  getRepository(repositoryId: number, options?: IndexCallOptions): Promise<RepositoryDocument | null>;
  findRepositoryByName(fullName: string, options?: IndexCallOptions): Promise<RepositoryDocument | null>;
  listRepositories(options?: IndexCallOptions): Promise<RepositoryDocument[]>;
  putRepository(repository: RepositoryDocument): Promise<void>;
  /** Removes the repository, its ref states and every file document. */
  deleteRepository(repositoryId: number): Promise<void>;

  getRefState(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefState | null>;
  listRefStates(repositoryId?: number, options?: IndexCallOptions): Promise<RefState[]>;
  putRefState(state: RefState): Promise<void>;
  /** findRepositoryByName, listRefStates and the newest versions of a path at once: one round trip where the engine is remote. */
  lookupForRead(request: ReadLookup, options?: IndexCallOptions): Promise<ReadLookupResult>;
  /** Removes a ref's state and every file document of it. */
  deleteRef(repositoryId: number, ref: string): Promise<void>;

  writeFiles(writes: FileWrite[]): Promise<void>;
  /** Undoes an attempt that never flipped: drops versions from later generations and their retirements. */
  discardAfter(snapshot: Snapshot): Promise<void>;
  /** Deletes versions retired at or before `generation` (old enough that no pinned reader needs them). */
  pruneRetired(repositoryId: number, ref: string, generation: number): Promise<void>;
  /** Makes every write so far visible to searches. */
  refresh(): Promise<void>;

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

  /**
   * Visible files with stored content that the plan selects (a superset of the files that
   * contain a match: the caller verifies each), in path order after scope.afterPath.
   */
  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope): Promise<ContentCandidate[]>;
  /** Visible files that were not searchable (binary or too large), in path order after scope.afterPath. */
  unsearchableFiles(snapshot: Snapshot, scope: ContentScope): Promise<ContentCandidate[]>;
  /** How many unsearchableFiles there are in the scope (its language and vendored/generated filters), counted by the index. */
  countUnsearchable(snapshot: Snapshot, scope: Pick<ContentScope, 'language' | 'includeGenerated' | 'signal'>): Promise<UnsearchableCount>;
  /** The content of these visible paths (missing ones left out), in path order. */
  readContents(snapshot: Snapshot, paths: string[], signal?: AbortSignal): Promise<FileContent[]>;
}
