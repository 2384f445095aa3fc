import type { BlobSymbols } from '@gitdex/contracts';
import type { BlobOutline } from '@gitdex/ports';
import { SYMBOL_LAYOUT } from './symbol-names';

/**
 * A blob's symbols as the fields of its symbols document (docs/design/symbols-storage.md): the
 * outline kept in _source only (not indexed), and the names "did you mean" and the previous
 * layout's reads select blobs by as keywords. Occurrences are not stored: find_references
 * parses the files that hold a name when it is asked.
 */
export interface SymbolFields {
  symbolExtractor: number;
  /** SYMBOL_LAYOUT once the blob's name documents are written (symbol-names.ts); absent on the previous layout. */
  symbolLayout: number;
  /** True once its names are in the name list (symbol-name-list.ts); absent from what the previous release wrote. */
  symbolNamesListed: boolean;
  /** Absent for a blob of no language. */
  symbolLanguage?: string;
  /** Definition names, as written and lower-cased ("did you mean"). */
  symbolNames: string[];
  symbolNamesLower: string[];
  symbolOutline: BlobOutline;
}

/** A put's symbols as its symbols document's fields; its occurrences are left out. */
export function symbolFieldsOf(symbols: BlobSymbols): SymbolFields {
  const { occurrences: _occurrences, ...outline } = symbols;
  const names = [...new Set(symbols.definitions.map((d) => d.name))];
  return {
    symbolExtractor: symbols.extractor,
    symbolLayout: SYMBOL_LAYOUT,
    symbolNamesListed: true,
    ...(symbols.language !== null ? { symbolLanguage: symbols.language } : {}),
    symbolNames: names,
    symbolNamesLower: [...new Set(names.map((name) => name.toLowerCase()))],
    symbolOutline: outline,
  };
}
