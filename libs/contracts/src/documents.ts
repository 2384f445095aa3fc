import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BlobSymbolsSchema } from './symbols';

/**
 * Index documents. A file document is one version of one path of one indexed ref.
 * Versions are tied to generations of the ref's state: a document is visible at
 * generation G when fromGeneration <= G and (retiredAtGeneration absent or > G).
 * The state document's generation flips only after every document of the new
 * generation is written, so readers always see one whole commit.
 */
export const FileKindSchema = z.enum(['file', 'symlink', 'submodule']);
export type FileKind = z.infer<typeof FileKindSchema>;

export const FileFlagsSchema = z.object({
  binary: z.boolean(),
  vendored: z.boolean(),
  generated: z.boolean(),
  /** Larger than the configured limit: listed, content not stored. */
  tooLarge: z.boolean(),
});
export type FileFlags = z.infer<typeof FileFlagsSchema>;

/**
 * Read fidelity (docs/reader.md, "Bytes and encodings"): how a stored file's bytes are kept.
 * `content` is the text as read; when it does not give the file's bytes back as UTF-8
 * (another encoding, or binary), the bytes themselves ride in `contentBase64`. Absent on
 * documents written before these fields existed: their content is UTF-8 or missing.
 */
export const TextEncodingSchema = z.enum(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']);
export type TextEncoding = z.infer<typeof TextEncodingSchema>;
const FileBytesFields = {
  /** How `content` was decoded; null for binary, unstored and non-file entries. */
  encoding: TextEncodingSchema.nullable().optional(),
  /** The file starts with a byte-order mark, left out of `content`. */
  bom: z.boolean().optional(),
  /** The exact bytes, base64, when `content` (as UTF-8) is not them: binary and non-UTF-8 files. */
  contentBase64: z.string().optional(),
};

export const FileDocumentSchema = z.object({
  repositoryId: z.number().int().positive(),
  ref: z.string(),
  path: z.string(),
  /** Folder that holds the file, '' for the root. */
  folder: z.string(),
  name: z.string(),
  extension: z.string(),
  language: z.string().nullable(),
  /** documentation, code, data or other: drives overview counts. */
  category: z.enum(['code', 'documentation', 'data', 'other']),
  kind: FileKindSchema,
  size: z.number().int().nonnegative(),
  lineCount: z.number().int().nonnegative().nullable(),
  blobSha: z.string(),
  commitSha: z.string(),
  flags: FileFlagsSchema,
  /** Symlink target, or the submodule's commit. */
  target: z.string().optional(),
  content: z.string().nullable(),
  /** Every folder above the file, '' (root) first: drives folder listings and counts. */
  ancestors: z.array(z.string()),
  depth: z.number().int().nonnegative(),
  /** Lower-cased name and path tokens and trigrams for suggestions, derived in TypeScript. */
  nameLower: z.string(),
  pathLower: z.string(),
  tokens: z.array(z.string()),
  trigrams: z.array(z.string()),
  fromGeneration: z.number().int().positive(),
  retiredAtGeneration: z.number().int().positive().optional(),
  ...FileBytesFields,
  /**
   * The blob's symbols, on a put: stored once per blob beside its content and found through
   * the index's symbol reads (never answered by document reads). Absent: not parsed by this
   * writer (a blob whose symbols are stored keeps them).
   */
  symbols: BlobSymbolsSchema.optional(),
});
export type FileDocument = z.infer<typeof FileDocumentSchema>;

export const IndexStatusSchema = z.enum(['indexing', 'ready', 'failed']);
export type IndexStatus = z.infer<typeof IndexStatusSchema>;

/** A commit of a ref the index still holds, readable at its generation (read fidelity: older commits). */
export const RetainedCommitSchema = z.object({
  commitSha: z.string(),
  generation: z.number().int().positive(),
  /** First parent first; empty when the source did not say. */
  parentShas: z.array(z.string()),
  committedAt: z.string().datetime().nullable(),
  indexedAt: z.string().datetime(),
  /** When the push that led to this commit was received (read your own push: lag and the changes feed). */
  receivedAt: z.string().datetime().nullable().optional(),
  /** Paths this generation added, changed or removed against the one before (at most MAX_CHANGED_PATHS). */
  changedPaths: z.array(z.string()).optional(),
  /** How many paths changed in all; more than changedPaths holds when the list was cut. */
  changedCount: z.number().int().nonnegative().optional(),
});
export type RetainedCommit = z.infer<typeof RetainedCommitSchema>;

/**
 * A pull request as GitHub's `pull_request` webhook and REST API describe it: what gitdex
 * stores beside the ref `pull/N` that serves its head commit.
 */
export const PullRequestInfoSchema = z.object({
  number: z.number().int().positive(),
  title: z.string().max(1024),
  state: z.enum(['open', 'closed']),
  merged: z.boolean(),
  draft: z.boolean(),
  /** The author's login; null when GitHub names none (a deleted account). */
  author: z.string().nullable(),
  /** The branch the pull request merges into, without refs/heads/. */
  baseRef: z.string().min(1),
  headSha: z.string().regex(/^[0-9a-f]{40}$/),
  updatedAt: z.string().datetime(),
  closedAt: z.string().datetime().nullable(),
});
export type PullRequestInfo = z.infer<typeof PullRequestInfoSchema>;

/**
 * A ref stored as the changes against another ref's generation (a pull request against its
 * base branch): its own file versions, plus every path of `ref` at `generation` that is not
 * in `shadowed` (the paths the layered ref added, changed or deleted). The underlay's
 * generation stays readable (pinned) while a ref layers on it.
 */
export const UnderlaySchema = z.object({
  ref: z.string().min(1),
  generation: z.number().int().positive(),
  shadowed: z.array(z.string()),
});
export type Underlay = z.infer<typeof UnderlaySchema>;

/** One per repository and ref: which commit is served, and how the last attempt went. */
export const RefStateSchema = z.object({
  repositoryId: z.number().int().positive(),
  ref: z.string(),
  /** The served commit; null until the first index completed. */
  commitSha: z.string().nullable(),
  treeSha: z.string().nullable(),
  generation: z.number().int().nonnegative(),
  indexedAt: z.string().datetime().nullable(),
  committedAt: z.string().datetime().nullable(),
  fileCount: z.number().int().nonnegative(),
  status: IndexStatusSchema,
  lastError: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  /** The newest commit a received event pointed at, while it is not yet served. */
  pendingCommitSha: z.string().nullable(),
  pendingSince: z.string().datetime().nullable(),
  /** When the event that led to the served commit was received: freshness is measured from it. */
  sourceReceivedAt: z.string().datetime().nullable(),
  /** The commits the index still holds, newest (the served one) first; absent before any was kept. */
  history: z.array(RetainedCommitSchema).optional(),
  /** Set on a pull request's ref (`pull/N`). */
  pull: PullRequestInfoSchema.optional(),
  /** Set when the served generation is stored as changes against another ref (UnderlaySchema). */
  underlay: UnderlaySchema.optional(),
  /**
   * Commits the served commit is known to contain besides itself: the commits and `before` of the
   * pushes that led to it, newest first, at most MAX_RECENT_COMMITS, emptied by a forced push
   * (read your own push: how min_commit is known to be served without asking GitHub).
   */
  recentCommits: z.array(z.string()).optional(),
});
/** recentCommits kept at most: a few pushes' worth, small enough to ride on every ref state read. */
export const MAX_RECENT_COMMITS = 64;
/** changedPaths kept at most per retained commit: the ref state is read with every lookup, so it stays small. */
export const MAX_CHANGED_PATHS = 100;
export type RefState = z.infer<typeof RefStateSchema>;

export const RepositoryDocumentSchema = z.object({
  repositoryId: z.number().int().positive(),
  fullName: z.string(),
  fullNameLower: z.string(),
  defaultBranch: z.string(),
  private: z.boolean(),
  archived: z.boolean(),
  htmlUrl: z.string(),
  installationId: z.number().int().positive().nullable(),
  updatedAt: z.string().datetime(),
  /** Set when a backfill was queued and has not completed yet. */
  backfillRequestedAt: z.string().datetime().nullable(),
});
export type RepositoryDocument = z.infer<typeof RepositoryDocumentSchema>;

/**
 * Deterministic id of one file version: the same (repository, ref, path, generation)
 * always lands on the same document in every index adapter, so every write is idempotent.
 */
export function fileDocumentId(repositoryId: number, ref: string, path: string, fromGeneration: number): string {
  return createHash('sha1').update(`${repositoryId}\0${ref}\0${path}\0${fromGeneration}`).digest('hex');
}
