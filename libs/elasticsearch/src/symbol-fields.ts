import type { BlobSymbols, SymbolOccurrence } from '@gitdex/contracts';
import type { BlobOutline } from '@gitdex/ports';
import { SYMBOL_LAYOUT } from './symbol-names';

/**
 * A blob's symbols as the fields of its symbols document (docs/design/symbols-storage.md): the
 * outline and the occurrences kept in _source only (not indexed), and the names the symbol
 * reads select blobs by as keywords.
 */
export interface SymbolFields {
  symbolExtractor: number;
  /** SYMBOL_LAYOUT once the blob's name documents are written (symbol-names.ts); absent on the previous layout. */
  symbolLayout: number;
  /** Absent for a blob of no language. */
  symbolLanguage?: string;
  /** Definition names, as written and lower-cased ("did you mean"). */
  symbolNames: string[];
  symbolNamesLower: string[];
  /** Names of the identifiers its code uses (find_references). */
  identifiers: string[];
  symbolOutline: BlobOutline;
  /** The occurrences, packed (packOccurrences). */
  symbolUses: string;
}

/** Every blob field that holds symbols: left out of document reads, which never answer them. */
export const SYMBOL_FIELDS = ['symbolExtractor', 'symbolLayout', 'symbolLanguage', 'symbolNames', 'symbolNamesLower', 'identifiers', 'symbolOutline', 'symbolUses'];

const ROLE_CODES: Record<SymbolOccurrence['role'], string> = { definition: 'd', reference: 'r', import: 'i' };
const ROLES: Record<string, SymbolOccurrence['role']> = { d: 'definition', r: 'reference', i: 'import' };

/**
 * Occurrences as one string, a line per name: `name<TAB>line,start,end,role line,start,end,role…`
 * (role d, r or i). As JSON objects they took about four times the bytes of the blob's content;
 * packed, a fraction (journal note of symbols storage). Identifier names hold no tab or newline.
 */
export function packOccurrences(occurrences: readonly SymbolOccurrence[]): string {
  const byName = new Map<string, string[]>();
  for (const o of occurrences) {
    const entry = `${o.line},${o.start},${o.end},${ROLE_CODES[o.role]}`;
    const list = byName.get(o.name);
    if (list) list.push(entry);
    else byName.set(o.name, [entry]);
  }
  return [...byName].map(([name, entries]) => `${name}\t${entries.join(' ')}`).join('\n');
}

/** The occurrences of a packed string, in file order; only those of `name` when given. */
export function unpackOccurrences(packed: string | undefined, name?: string): SymbolOccurrence[] {
  const occurrences: SymbolOccurrence[] = [];
  if (!packed) return occurrences;
  for (const line of packed.split('\n')) {
    const tab = line.indexOf('\t');
    const lineName = line.slice(0, tab);
    if (name !== undefined && lineName !== name) continue;
    for (const entry of line.slice(tab + 1).split(' ')) {
      const [l, s, e, r] = entry.split(',');
      occurrences.push({ name: lineName, line: Number(l), start: Number(s), end: Number(e), role: ROLES[r as string] ?? 'reference' });
    }
  }
  return occurrences.sort((a, b) => a.line - b.line || a.start - b.start);
}

export function symbolFieldsOf(symbols: BlobSymbols): SymbolFields {
  const { occurrences, ...outline } = symbols;
  const names = [...new Set(symbols.definitions.map((d) => d.name))];
  return {
    symbolExtractor: symbols.extractor,
    symbolLayout: SYMBOL_LAYOUT,
    ...(symbols.language !== null ? { symbolLanguage: symbols.language } : {}),
    symbolNames: names,
    symbolNamesLower: [...new Set(names.map((name) => name.toLowerCase()))],
    identifiers: [...new Set(occurrences.map((o) => o.name))],
    symbolOutline: outline,
    symbolUses: packOccurrences(occurrences),
  };
}

export function symbolsOfFields(fields: Pick<SymbolFields, 'symbolOutline'> & { symbolUses?: string }): BlobSymbols {
  return { ...fields.symbolOutline, occurrences: unpackOccurrences(fields.symbolUses) };
}
