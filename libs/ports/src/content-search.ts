import type { FileDocument, FileFlags } from '@gitdex/contracts';

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
  /** Stops the index query (and the adapter's work) when aborted: the call then rejects. */
  signal?: AbortSignal;
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
