import type { BlobSymbols, OccurrenceRole, SymbolOccurrence } from '@gitdex/contracts';

/**
 * Occurrences as they cross from a worker to the pool: the names in one string and the numbers in
 * one Int32Array. Structured cloning copies these two in one piece each, where a hundred thousand
 * small objects cost it a quarter of extraction's own CPU.
 */
export interface PackedOccurrences {
  /** Names joined by '\n' (an occurrence's name never holds one). */
  readonly names: string;
  /** line, start, end, role index: four per occurrence. */
  readonly numbers: Int32Array;
}

export type PackedBlobSymbols = Omit<BlobSymbols, 'occurrences'> & { readonly packed: PackedOccurrences };

const ROLES: readonly OccurrenceRole[] = ['definition', 'reference', 'import'];

export function packSymbols({ occurrences, ...rest }: BlobSymbols): PackedBlobSymbols {
  const numbers = new Int32Array(occurrences.length * 4);
  occurrences.forEach((o, i) => {
    numbers[i * 4] = o.line;
    numbers[i * 4 + 1] = o.start;
    numbers[i * 4 + 2] = o.end;
    numbers[i * 4 + 3] = ROLES.indexOf(o.role);
  });
  return { ...rest, packed: { names: occurrences.map((o) => o.name).join('\n'), numbers } };
}

export function unpackSymbols({ packed, ...rest }: PackedBlobSymbols): BlobSymbols {
  const { numbers } = packed;
  const names = numbers.length === 0 ? [] : packed.names.split('\n');
  const occurrences = new Array<SymbolOccurrence>(names.length);
  for (let i = 0; i < names.length; i++) {
    occurrences[i] = { name: names[i]!, line: numbers[i * 4]!, start: numbers[i * 4 + 1]!, end: numbers[i * 4 + 2]!, role: ROLES[numbers[i * 4 + 3]!]! };
  }
  return { ...rest, occurrences };
}
