import type { PullRequestInfo } from '@gitdex/contracts';
import type { Readable } from 'node:stream';
import type { CommitFileStatus, CommitPerson } from './history';

export interface SourceRepository {
  id: number;
  fullName: string;
  defaultBranch: string;
  private: boolean;
  archived: boolean;
  htmlUrl: string;
}

/** An installation of the GitHub App, for installation-wide backfills and status. */
export interface SourceInstallation {
  id: number;
  /** The organisation or user it is installed on. */
  account: string;
}

export interface SourceCommit {
  sha: string;
  treeSha: string;
  committedAt: string;
  /** Its parents, first parent first, when the source says (for `main~N` within retained commits). */
  parentShas?: string[];
}

/** An entry of a git tree: blob (file or symlink, by mode), tree, or commit (submodule). */
export interface TreeEntry {
  path: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size?: number;
}

export interface SourceTree {
  sha: string;
  entries: TreeEntry[];
  truncated: boolean;
}

/** A file changed between two commits, as GitHub's compare lists it. */
export interface SourceChangedFile {
  path: string;
  /** GitHub's words: added, removed, modified, renamed, copied, changed (mode), unchanged. */
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  /** The path before a rename. */
  previousPath?: string;
  additions?: number;
  deletions?: number;
  /** The blob after the change (the one removed for `removed`). */
  sha?: string;
}

/** What changed from `base` to `head`: GitHub compares from their merge base. */
export interface SourceComparison {
  /** ahead: base is an ancestor of head, so the files are exactly base → head. */
  status: 'ahead' | 'behind' | 'identical' | 'diverged';
  /** The head commit; null when GitHub's list of commits stops before it (more than 250). */
  head: SourceCommit | null;
  files: SourceChangedFile[];
  /** False when GitHub may have cut the list (it lists at most 300 files). */
  complete: boolean;
  /** The commits from the merge base to head, oldest first, when GitHub listed them all (at most 250). */
  commits?: SourceCommitInfo[];
}

/** A file of a commit read with its bytes, when the source could give them exactly. */
export interface SourceFile {
  path: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number;
  /** The file's exact bytes (checked against its sha); absent for binary, cut or inexact answers: read the blob. */
  content?: Buffer;
}

/**
 * Reads that answer many things with one request (GitHub's compare and GraphQL). Present only
 * when the source can make them (GitHub's GraphQL needs credentials); the indexer falls back to
 * tree and blob reads otherwise.
 */
export interface BatchReads {
  compare(repository: SourceRepository, base: string, head: string, installationId?: number): Promise<SourceComparison>;
  /**
   * The repository as it is now (null when it cannot be read) and the files at `paths` of a commit
   * (a path absent from the map is not in the commit), in as few requests as the source allows.
   */
  files(repository: SourceRepository, commitSha: string, paths: readonly string[], installationId?: number): Promise<{ repository: SourceRepository | null; files: Map<string, SourceFile> }>;
}

/**
 * The source port: GitHub (or GitHub Enterprise, or the stand-in) as the indexer needs it.
 * Errors are PortErrors: NOT_FOUND for a missing repository, ref or object;
 * RATE_LIMITED / UNAVAILABLE (retriable, with retryAfterMs) for what passes.
 */
export interface Source {
  /** By id, so renames and transfers do not lose the repository; null when it is gone. */
  repository(repositoryId: number, installationId?: number): Promise<SourceRepository | null>;
  /** By owner/name, for operators who name a repository (the CLI); null when it does not exist. */
  repositoryByName(fullName: string, installationId?: number): Promise<SourceRepository | null>;
  /** The commit a branch points at now; null when the branch does not exist. */
  head(repository: SourceRepository, branch: string, installationId?: number): Promise<SourceCommit | null>;
  branches(repository: SourceRepository, installationId?: number): Promise<string[]>;
  tree(repository: SourceRepository, treeSha: string, options: { recursive: boolean; installationId?: number }): Promise<SourceTree>;
  blob(repository: SourceRepository, blobSha: string, installationId?: number): Promise<Buffer>;
  /** The gzipped tarball of a commit, streamed. */
  tarball(repository: SourceRepository, commitSha: string, installationId?: number): Promise<Readable>;
  /** Tag names (without refs/tags/), when tags are indexed (GITDEX_INDEXED_REFS with refs/tags/ globs). */
  tags?(repository: SourceRepository, installationId?: number): Promise<string[]>;
  /** The commit a tag points at, annotated tags peeled; null when the tag does not exist. */
  tagHead?(repository: SourceRepository, tag: string, installationId?: number): Promise<SourceCommit | null>;
  /** A commit by sha (a pull request's head, which no branch of the repository may name); null when GitHub has none. */
  commit?(repository: SourceRepository, sha: string, installationId?: number): Promise<SourceCommit | null>;
  /** The repository's open pull requests (every page), for the reconciler. */
  openPulls?(repository: SourceRepository, installationId?: number): Promise<PullRequestInfo[]>;
  /** One pull request as GitHub describes it now; null when it does not exist. */
  pull?(repository: SourceRepository, number: number, installationId?: number): Promise<PullRequestInfo | null>;
  /**
   * Every repository an App installation can see (its whole list, all pages), so added and
   * removed repositories are found; absent when the credentials are not a GitHub App's.
   */
  installationRepositories?(installationId: number): Promise<SourceRepository[]>;
  /**
   * Every repository these credentials can see, from GitHub's list endpoints in pages of 100
   * (an installation's with its id, else the token's), so visibility is refreshed with a few
   * requests instead of one per repository. Paging stops once every id of `until` was seen;
   * null when the credentials cannot list (no token and no installation).
   */
  listRepositories?(options: { installationId?: number; until?: ReadonlySet<number> }): Promise<SourceRepository[] | null>;
  /** Answers so far that were 304 Not Modified (free on GitHub's rate limit), for the reconciler's account of what it spent. */
  notModifiedAnswers?(): number;
  /** The App's installations (GET /app/installations); null when the credentials are not a GitHub App's. */
  appInstallations?(): Promise<SourceInstallation[] | null>;
  /** The App's installation on an organisation or user account; null when it is not installed there. */
  accountInstallation?(account: string): Promise<SourceInstallation | null>;
  /** Compare and batched file reads, so a push costs two requests (see BatchReads). */
  batchReads?: BatchReads;
  /** Commit logs, commit files and blobs by sha, for the history of indexed refs. */
  history?: HistorySource;
}

/** A commit's metadata as the source lists it (GitHub's GraphQL Commit.history). */
export interface SourceCommitInfo {
  sha: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
  /** Its root tree, when the source listed it (GitHub's log does). */
  tree?: string;
  /** Its own change counts against its first parent, when the source listed them. */
  counts?: { changedFiles: number | null; additions: number; deletions: number };
}

/** A file a commit changed, as the source describes it (GitHub's commit endpoint). */
export interface SourceCommitFile {
  path: string;
  previousPath: string | null;
  status: CommitFileStatus;
  additions: number;
  deletions: number;
  /** The blob after the change; for `removed`, the blob removed. */
  sha: string;
  /** The blob before the change, when the source said (changes computed from versions at paths). */
  previousSha?: string;
}

/** A file at a path of a commit (GitHub's Commit.file), with its bytes when they came exactly. */
export interface SourcePathVersion {
  sha: string;
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  content?: Buffer;
}

/** A commit's files at the paths asked, with its own change counts against its first parent. */
export interface SourceCommitVersions {
  /** Files it changed as the source counts them (a rename is one); null when the source could not say. */
  changedFiles: number | null;
  additions: number;
  deletions: number;
  /** By path; a path absent holds no file in this commit. */
  files: Map<string, SourcePathVersion>;
}

/**
 * What the indexer asks the source to record history: a commit log in pages, one commit's files,
 * and blobs by sha in batches. Part of Source (Source.history) when the source can list history.
 */
export interface HistorySource {
  /**
   * Commits of `git log head`, in its order, at most `limit`; stops early after a page whose every
   * commit is in `known` (history already held).
   */
  commitLog(repository: SourceRepository, head: string, options: { limit: number; known?: ReadonlySet<string>; installationId?: number }): Promise<SourceCommitInfo[]>;
  /** The files a commit changed against its first parent; complete is false when the source cut the list. */
  commitFiles(repository: SourceRepository, sha: string, installationId?: number): Promise<{ files: SourceCommitFile[]; complete: boolean }>;
  /**
   * The bytes of these blobs, in as few requests as the source allows. Left out: unknown shas,
   * binary blobs and blobs larger than maxBytes (history keeps text versions only).
   */
  blobs(repository: SourceRepository, shas: readonly string[], options: { maxBytes: number; installationId?: number }): Promise<Map<string, Buffer>>;
  /**
   * For each commit, its files at `paths` and its change counts, in one request; the bytes come
   * with the files of the commits in `withContent`. Null when one request cannot hold the question
   * (too many commits × paths, or the source's answer would be too large).
   */
  /**
   * The entries one level down of each tree, by oid; a commit's oid gives its root tree's. In as
   * few requests as the source allows; an oid the source does not know is left out.
   */
  treeEntries?(repository: SourceRepository, oids: readonly string[], installationId?: number): Promise<Map<string, TreeEntry[]>>;
  pathVersions?(
    repository: SourceRepository,
    commits: readonly string[],
    paths: readonly string[],
    options: { withContent: ReadonlySet<string>; installationId?: number },
  ): Promise<Map<string, SourceCommitVersions> | null>;
}
