import type { IndexCallOptions } from './index-types';

/** How a commit changed a file, in GitHub's words (a mode change is `modified`; copies are `added`). */
export type CommitFileStatus = 'added' | 'modified' | 'removed' | 'renamed';

export interface CommitPerson {
  name: string;
  email: string;
  /** ISO 8601, UTC. */
  date: string;
}

/** One file a commit changed, against its first parent (the empty tree for a root commit). */
export interface CommitFile {
  path: string;
  /** The path before a rename; null otherwise. */
  previousPath: string | null;
  status: CommitFileStatus;
  additions: number;
  deletions: number;
  /**
   * The blob at `previousPath ?? path` in the first parent; null for `added`, and when the
   * version before is older than the history held (its blob was never fetched).
   */
  blobBefore: string | null;
  /** The blob at `path` in this commit; null for `removed`. */
  blobAfter: string | null;
}

/** A commit of a repository, stored once per repository whatever refs hold it. */
export interface CommitRecord {
  sha: string;
  /** First parent first; empty for a root commit. */
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  /** The whole message, without a trailing newline. */
  message: string;
  /** In path order. */
  files: CommitFile[];
  /** False when the source cut the list of files (GitHub lists at most 300 per commit). */
  filesComplete: boolean;
}

/**
 * The history a ref holds: every stored commit reachable from `head` through parents that are
 * held (a parent not in `commits` is older than the history held). Written before the ref's state
 * flips to `head`, so a commit is listed exactly when its content is readable; a reader walks from
 * the commit its pinned ref state serves, which is `head` or, while a flip is pending, an ancestor
 * kept in `commits` until the flip is done.
 */
export interface RefHistory {
  repositoryId: number;
  ref: string;
  head: string;
  /** The shas held, in any order (the reader orders them as git log does). */
  commits: string[];
}

/** A blob's bytes, for reading old versions of files (compare, blame). */
export interface HistoryBlob {
  sha: string;
  content: Buffer;
}

/**
 * A version's blame (a commit's file at a path), computed by the indexer when it records the
 * commit so a reader's first blame reads it instead of diffing every version. Keyed by the held
 * key of the commit (a hash of the commit and the history held below it, see @gitdex/diff's
 * heldKey), so a stored blame never goes stale; `commit` lets pruning drop it with its commit.
 */
export interface StoredVersionBlame {
  key: string;
  path: string;
  commit: string;
  /** Owners as [commit, path, boundary] and runs of (owner index, line there, count); runs null: one owner, every line its own. */
  blame: { owners: [commit: string, path: string, boundary: 0 | 1][]; runs: number[] | null };
}

/** What readers ask of the history held (list_commits, compare, blame). */
export interface HistoryReads {
  getRefHistory(repositoryId: number, ref: string, options?: IndexCallOptions): Promise<RefHistory | null>;
  /** The stored commits among these shas (missing ones are left out), in any order. */
  getCommits(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<CommitRecord[]>;
  /** The stored bytes of these blobs (missing ones are left out). */
  readHistoryBlobs(repositoryId: number, shas: readonly string[], options?: IndexCallOptions): Promise<Map<string, Buffer>>;
  /** The stored version blames among these (key, path) pairs (missing ones are left out), in any order. */
  getVersionBlames(repositoryId: number, wanted: readonly { key: string; path: string }[], options?: IndexCallOptions): Promise<StoredVersionBlame[]>;
}

/** What the indexer writes. Every write is idempotent. */
export interface HistoryWrites {
  /** Stores commits not stored yet (a commit's record never changes: its sha is its content). */
  putCommits(repositoryId: number, commits: readonly CommitRecord[]): Promise<void>;
  /** Replaces the ref's history. */
  putRefHistory(history: RefHistory): Promise<void>;
  /** Drops the ref's history (branch deleted); its commits go with the next pruneCommits. */
  deleteRefHistory(repositoryId: number, ref: string): Promise<void>;
  /** Drops commits, blobs and version blames that no ref's history names any more (force push, deleted branch). */
  pruneCommits(repositoryId: number): Promise<void>;
  /** Drops every commit, ref history, blob and version blame of the repository. */
  deleteHistory(repositoryId: number): Promise<void>;
  /** Which of these blobs are not stored yet (to fetch only those). */
  missingHistoryBlobs(repositoryId: number, shas: readonly string[]): Promise<string[]>;
  putHistoryBlobs(repositoryId: number, blobs: readonly HistoryBlob[]): Promise<void>;
  /** Stores version blames (idempotent: a key names the same blame forever); pruned with their commit. */
  putVersionBlames(repositoryId: number, blames: readonly StoredVersionBlame[]): Promise<void>;
}

/**
 * The history port: commits and the old file versions they name, per repository, beside the
 * index of content. Each adapter implements it on the engine of its index store.
 */
export interface HistoryStore extends HistoryReads, HistoryWrites {
  ensureHistoryReady(): Promise<void>;
}
