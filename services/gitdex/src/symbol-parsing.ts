import type { Env } from '@gitdex/contracts';
import type { StoredSymbols } from '@gitdex/ports';
import type { SymbolParsing } from '@gitdex/indexer';
import { createSymbolExtractor, SUPPORTED_LANGUAGES, SYMBOL_EXTRACTOR_VERSION } from '@gitdex/symbols';

/**
 * The indexer's symbol parsing on @gitdex/symbols: a pool of worker threads (one per core),
 * so a hostile blob costs one worker for its timeout and never the indexer's thread. Close it
 * when the indexer stops. The index stores definitions only: find_references parses the
 * candidate files of a name when it is asked (docs/design/symbols-storage.md).
 */
export function createSymbolParsing(index: StoredSymbols): { parsing: SymbolParsing; close(): Promise<void> } {
  const extractor = createSymbolExtractor();
  return {
    parsing: { extract: (content, path, language) => extractor.extract(content, path, language, 'none'), version: SYMBOL_EXTRACTOR_VERSION, languages: SUPPORTED_LANGUAGES, stored: index },
    close: () => extractor.close(),
  };
}

/**
 * GITDEX_SYMBOLS as both indexer entry points honour it: off, no pool is started and the
 * indexer gets no parsing, so it writes content alone (the baseline a full index with symbols
 * is measured against).
 */
export function symbolParsingOf(env: Pick<Env, 'GITDEX_SYMBOLS'>, index: StoredSymbols): ReturnType<typeof createSymbolParsing> | undefined {
  return env.GITDEX_SYMBOLS ? createSymbolParsing(index) : undefined;
}
