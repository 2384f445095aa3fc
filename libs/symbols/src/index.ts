export { extractSymbols, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, MAX_LINE_CHARS, type ExtractLimits, type OccurrenceSelection } from './extract';
export { SUPPORTED_LANGUAGES } from './grammars';
export { createSymbolExtractor, type SymbolExtractor, type SymbolExtractorOptions } from './pool';
export { SYMBOL_EXTRACTOR_VERSION } from './version';
export { operatorName } from './operator-names';
