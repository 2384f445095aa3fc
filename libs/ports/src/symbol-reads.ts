import type { BlobSymbols, FileFlags, SymbolDefinition, SymbolKind, SymbolOccurrence } from '@gitdex/contracts';
import type { IndexCallOptions, Snapshot } from './index-types';

/**
 * Which definitions a symbol search wants, always case-sensitive:
 * - `exact`: definitions named `name`; with `container`, only those whose container is it or
 *   ends with ".container" ("Store" matches the container "libs.Store"): `Container.name`.
 * - `pattern`: names matching a glob where `*` is any run of characters (nothing else is special).
 */
export type SymbolNameQuery = { match: 'exact'; name: string; container?: string } | { match: 'pattern'; pattern: string };

/** An exact name, and optionally its container: what rankedSymbols answers. */
export type ExactSymbolQuery = Extract<SymbolNameQuery, { match: 'exact' }>;

/** The most files per snapshot rankedSymbols reads (an engine's largest page). */
export const RANKED_SYMBOL_FILES = 10_000;

/** What rankedSymbols answers. */
export interface SymbolPage {
  hits: SymbolHit[];
  total: number;
}

/** Filters every symbol read takes; absent = no filter. */
export interface SymbolScope {
  /** Only files of this language (as the index stores it). */
  language?: string;
  /** Only paths starting with this ("src/" a folder, "src/a.ts" one file). */
  pathPrefix?: string;
}

/** What a symbol read knows of the visible file it answers from. */
export interface SymbolFile {
  /** Index into the `snapshots` the call was given. */
  snapshotIndex: number;
  path: string;
  blobSha: string;
  commitSha: string;
  language: string | null;
  flags: FileFlags;
}

/** One definition found: the file that holds it and the definition. */
export interface SymbolHit extends SymbolFile {
  definition: SymbolDefinition;
}

/** The definitions of a blob without its occurrences: what an outline needs. */
export type BlobOutline = Omit<BlobSymbols, 'occurrences'>;

export interface FileSymbols extends Omit<SymbolFile, 'snapshotIndex'> {
  /** Null when the blob has no symbols stored (indexed before symbols existed, not parsed yet). */
  symbols: BlobOutline | null;
}

/** A visible file whose code uses an identifier, with its occurrences of that name only (find_references parses them when asked). */
export interface IdentifierFile extends SymbolFile {
  /** In file order; only those named as asked. */
  occurrences: SymbolOccurrence[];
  /** The file's definitions of that name (what a reference may resolve to in this file). */
  definitions: SymbolDefinition[];
}

/**
 * What find_symbol and file_outline ask the index (find_references asks the content index, then parses). Every read takes a list
 * of snapshots (each a readable ref the caller chose; several repositories and refs at once,
 * as search_code scopes them) and sees only their visible versions: a symbol is found exactly
 * while the file version that defines it is visible. Symbols are stored once per blob; these
 * reads join them to the visible paths. Like every read, the trailing IndexCallOptions may
 * abort the call.
 */
export interface SymbolReads {
  /**
   * Definitions matching the query in the visible files of the snapshots, at most `limit`, in
   * (snapshotIndex, path, line) order. The caller ranks; asking limit + 1 tells it whether
   * there are more. Definitions of vendored and generated files are included (flags tell).
   */
  findSymbols(snapshots: Snapshot[], query: SymbolNameQuery & SymbolScope & { kind?: SymbolKind; limit: number }, options?: IndexCallOptions): Promise<SymbolHit[]>;

  /**
   * The definitions of an exact name (and container) that find_symbol shows first, without
   * reading every file that defines it. Per snapshot, the visible files holding a matching
   * definition are put in file order: tier (tierOf of @gitdex/terms: source, tests, vendored or
   * generated), then the least nesting (nestingOf) among the file's matching definitions, then
   * folders, then path. `hits` holds every matching definition of each snapshot's first `files`
   * files, in (snapshotIndex, path, line) order; `total` counts the matching definitions in all
   * visible files. Each file ahead of another in that order holds a definition that ranks ahead
   * of all the other's, so ranking these hits gives the first `files` definitions of the
   * ranking of all of them. `files` is at most RANKED_SYMBOL_FILES.
   */
  rankedSymbols(snapshots: Snapshot[], query: ExactSymbolQuery & SymbolScope & { kind?: SymbolKind; files: number }, options?: IndexCallOptions): Promise<SymbolPage>;

  /** The visible file at `path` with its stored definitions; null when the path is not visible (or not a file). */
  fileSymbols(snapshot: Snapshot, path: string, options?: IndexCallOptions): Promise<FileSymbols | null>;

  /**
   * "Did you mean": distinct definition names visible in the snapshots that are near `name`
   * ignoring case: equal, starting with its first three characters, or containing it (an
   * adapter may add names a few edits away: the caller's ranking drops those too far). At most
   * `limit` names, in no particular order: the caller ranks them (edit distance).
   */
  symbolNamesLike(snapshots: Snapshot[], name: string, limit: number, options?: IndexCallOptions): Promise<string[]>;
}

/**
 * What the indexer asks before it parses: symbols already stored for these blob shas by
 * extractor version `extractor` and for the same language, in any repository, keyed by sha (a
 * blob's symbols are a function of its content and language, so a sha parsed once is never
 * parsed again). Shas without them are left out. Never exposed to readers.
 */
export interface StoredSymbols {
  storedSymbols(blobs: { blobSha: string; language: string | null }[], extractor: number): Promise<Map<string, BlobSymbols>>;
}
