import type { FileDocument, Underlay } from '@gitdex/contracts';

/**
 * Options of one read. signal: the caller gave up (deadline passed, request cancelled);
 * an adapter stops as soon as it can (checks it between statements, or aborts the request)
 * and rejects with the signal's reason. The last argument of every read and search, and
 * the only way cancellation reaches an adapter; writes take none.
 */
export interface IndexCallOptions {
  signal?: AbortSignal;
}

/** A ref at one generation: what a reader sees, pinned. */
export interface Snapshot {
  repositoryId: number;
  ref: string;
  generation: number;
  /**
   * The ref is stored as changes against another ref's generation (RefState.underlay): every
   * read also sees that generation's versions of the paths not in `shadowed`.
   */
  underlay?: Underlay;
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
  /** Lower-cased full query path, its name, tokens and name trigrams (see libs/terms). */
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

/** Summary fields of a file without its content, for listings. */
export type FileSummary = Omit<FileDocument, 'content' | 'tokens' | 'trigrams' | 'contentBase64' | 'symbols'>;
