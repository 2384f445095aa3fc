import type { FileDocument, FileFlags } from '@gitdex/contracts';
import type { IndexCallOptions, Snapshot } from './index-types';

/**
 * What a file's content must contain for a search to possibly match it: a boolean formula
 * over substrings, folded with contracts' foldText and each at least 3 units long. A
 * substring the search needs in its exact case also gives it as `cased` (whose fold is
 * `text`): adapters then ask for its hump trigrams too. Adapters turn the plan into index
 * terms (contracts' queryTermCodes); a file it selects is only a candidate — the service
 * verifies every candidate on its content.
 */
export type ContentPlan = { op: 'all' } | { op: 'substring'; text: string; cased?: string } | { op: 'and' | 'or'; of: ContentPlan[] };

export interface ContentScope {
  /** Only files of this language (as the index stores it), when given. */
  language?: string;
  /** Vendored and generated files too. */
  includeGenerated: boolean;
  /** Files whose path sorts after this one (code point order), for paging; null = from the start. */
  afterPath: string | null;
  limit: number;
}

/** A file version that may match, without its content. */
export interface ContentCandidate {
  path: string;
  blobSha: string;
  language: string | null;
  flags: FileFlags;
  size: number;
}

/** Visible files that were not searched, by why: binary, or too large to index (and not binary). */
export interface UnsearchableCount {
  binary: number;
  tooLarge: number;
}

export interface FileContent {
  path: string;
  content: FileDocument['content'];
}

/** The filters countUnsearchable counts under: a scope without its page. */
export type UnsearchableScope = Pick<ContentScope, 'language' | 'includeGenerated'>;

/**
 * What search_code asks the index. Like every read, each method takes a trailing
 * IndexCallOptions: an aborted signal stops the index query and the call rejects.
 */
export interface ContentSearch {
  /**
   * Visible files with stored content that the plan selects (a superset of the files that
   * contain a match: the caller verifies each), in path order after scope.afterPath.
   */
  searchCandidates(snapshot: Snapshot, plan: ContentPlan, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]>;
  /** Visible files that were not searchable (binary or too large), in path order after scope.afterPath. */
  unsearchableFiles(snapshot: Snapshot, scope: ContentScope, options?: IndexCallOptions): Promise<ContentCandidate[]>;
  /** How many unsearchableFiles there are in the scope (its language and vendored/generated filters), counted by the index. */
  countUnsearchable(snapshot: Snapshot, scope: UnsearchableScope, options?: IndexCallOptions): Promise<UnsearchableCount>;
  /** The content of these visible paths (missing ones left out), in path order. */
  readContents(snapshot: Snapshot, paths: string[], options?: IndexCallOptions): Promise<FileContent[]>;
}
