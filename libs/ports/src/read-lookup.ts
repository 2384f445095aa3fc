import type { FileDocument, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { FileSymbols } from './symbol-reads';

/**
 * What a read looks up before it reads, asked in one round trip (IndexStore.lookupForRead):
 * a repository by name, the ref states of the repository the name stood for when last
 * looked up (a guess: the caller checks the answer's repository id), and optionally the
 * newest versions of one path in one ref of it, from which the caller picks the version
 * visible at the ref state's generation (visibleVersion): with their content (`versions`,
 * what getFile answers) or with their outline (`outlines`, what fileSymbols answers).
 */
export type ReadLookup = {
  /** Looked up exactly as findRepositoryByName(fullName). */
  fullName: string;
  /** Whose ref states to answer, as listRefStates(repositoryId). */
  repositoryId: number;
} & ({ versions?: VersionsLookup; outlines?: never } | { outlines?: VersionsLookup; versions?: never });

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
  /** As `versions`, each version as fileSymbols answers it; null when not asked or not looked up. */
  outlines: OutlineVersion[] | null;
}

/**
 * A version of a path as fileSymbols answers a file, with the generations visibleVersion reads
 * and its kind: fileSymbols answers no symlink nor submodule, so a caller reads one as no file.
 */
export type OutlineVersion = FileSymbols & Pick<FileDocument, 'kind' | 'fromGeneration' | 'retiredAtGeneration'>;
