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
