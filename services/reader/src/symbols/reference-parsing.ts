import type { BlobSymbols, SymbolDefinition, SymbolOccurrence } from '@gitdex/contracts';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, type SymbolExtractor } from '@gitdex/symbols';

/**
 * How find_references learns where a name occurs in a file: it parses the file when asked,
 * since the index stores definitions only (docs/design/symbols-storage.md).
 */
export interface ReferenceParsing {
  /** Languages it parses (the index's names); files of others are never candidates. */
  readonly languages: readonly string[];
  /** The file's definitions and its occurrences of `name` only; never rejects for the file's sake (failed or skipped instead). */
  occurrences(content: string, path: string, language: string | null, name: string): Promise<BlobSymbols>;
}

/**
 * What one find_references call may parse. A file takes about 3 ms of CPU to parse on average
 * (docs/design/symbols.md), so 400 files are about a second of the pool's time at most; a name
 * used more widely is better narrowed by repository, path or language than parsed everywhere.
 */
export interface ReferenceBounds {
  /** Files sent to the parser (files parsed for this name before are free). */
  readonly files: number;
  /** Their bytes. */
  readonly bytes: number;
  /** Milliseconds from the start of the scan (deps.now). */
  readonly ms: number;
  /** Candidate files listed by the content index. */
  readonly candidates: number;
}

export const REFERENCE_BOUNDS: ReferenceBounds = { files: 400, bytes: 16 * 1024 * 1024, ms: 4_000, candidates: 20_000 };

/** A blob's occurrences and definitions of one name: what the reader keeps by blob (deps.referenceCache). */
export interface ParsedReferences {
  occurrences: SymbolOccurrence[];
  definitions: SymbolDefinition[];
}

/**
 * @gitdex/symbols' worker pool, started on the first find_references (a reader that is never
 * asked starts no threads): a hostile file costs one worker its timeout, never the reader's thread.
 */
export function poolReferenceParsing(): ReferenceParsing {
  let extractor: SymbolExtractor | undefined;
  return {
    languages: SUPPORTED_LANGUAGES,
    occurrences: (content, path, language, name) => {
      extractor ??= createSymbolExtractor();
      return extractor.extract(content, path, language, { name });
    },
  };
}
