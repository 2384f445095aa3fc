import type { BlobSymbols, SymbolOccurrence } from '@gitdex/contracts';
import type { BlobOutline } from '@gitdex/ports';

/**
 * A blob's symbols as fields of its blob document (docs/design/symbols-storage.md): the
 * outline and the occurrences kept in _source only (objects not indexed), and the names the
 * symbol reads select blobs by as keywords (doc values and postings, no source of their own).
 */
export interface SymbolFields {
  symbolExtractor: number;
  /** Absent for a blob of no language. */
  symbolLanguage?: string;
  /** Definition names, as written and lower-cased ("did you mean"). */
  symbolNames: string[];
  symbolNamesLower: string[];
  /** Names of the identifiers its code uses (find_references). */
  identifiers: string[];
  symbolOutline: BlobOutline;
  symbolOccurrences: SymbolOccurrence[];
}

/** Every blob field that holds symbols: left out of document reads, which never answer them. */
export const SYMBOL_FIELDS = ['symbolExtractor', 'symbolLanguage', 'symbolNames', 'symbolNamesLower', 'identifiers', 'symbolOutline', 'symbolOccurrences'];

export function symbolFieldsOf(symbols: BlobSymbols): SymbolFields {
  const { occurrences, ...outline } = symbols;
  const names = [...new Set(symbols.definitions.map((d) => d.name))];
  return {
    symbolExtractor: symbols.extractor,
    ...(symbols.language !== null ? { symbolLanguage: symbols.language } : {}),
    symbolNames: names,
    symbolNamesLower: [...new Set(names.map((name) => name.toLowerCase()))],
    identifiers: [...new Set(occurrences.map((o) => o.name))],
    symbolOutline: outline,
    symbolOccurrences: occurrences,
  };
}

export function symbolsOfFields(fields: Pick<SymbolFields, 'symbolOutline' | 'symbolOccurrences'>): BlobSymbols {
  return { ...fields.symbolOutline, occurrences: fields.symbolOccurrences ?? [] };
}
