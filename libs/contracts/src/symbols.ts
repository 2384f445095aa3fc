import { z } from 'zod';

/** What a definition is. Grammars name these differently; extraction maps each to one of these. */
export const SymbolKindSchema = z.enum(['function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'constant', 'variable', 'field', 'property', 'macro']);
export type SymbolKind = z.infer<typeof SymbolKindSchema>;

export const MAX_SIGNATURE_CHARS = 200;

/** One definition in a blob: a function of the blob's content and language only. */
export const SymbolDefinitionSchema = z.object({
  name: z.string().min(1),
  kind: SymbolKindSchema,
  /** 1-based, inclusive. */
  line: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** Qualified name of the enclosing definitions ("Outer.Inner"), null at the top level. */
  container: z.string().nullable(),
  /** The definition's first line(s), whitespace collapsed, at most MAX_SIGNATURE_CHARS. */
  signature: z.string().max(MAX_SIGNATURE_CHARS),
});
export type SymbolDefinition = z.infer<typeof SymbolDefinitionSchema>;

/** Where an identifier occurs in code (never in comments or strings). */
export const OccurrenceRoleSchema = z.enum(['definition', 'reference', 'import']);
export type OccurrenceRole = z.infer<typeof OccurrenceRoleSchema>;

export const SymbolOccurrenceSchema = z.object({
  name: z.string().min(1),
  /** 1-based line; columns are 0-based UTF-16 offsets in that line, end exclusive. */
  line: z.number().int().positive(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  role: OccurrenceRoleSchema,
});
export type SymbolOccurrence = z.infer<typeof SymbolOccurrenceSchema>;

/**
 * The symbols of one blob. `status` says whether it was parsed: a file that is skipped (no
 * grammar, too large) or fails (timeout, parser crash) keeps its content and is counted.
 */
export const BlobSymbolsSchema = z.object({
  /** Version of the extractor: a blob parsed by an older one is parsed again when it changes. */
  extractor: z.number().int().positive(),
  language: z.string().nullable(),
  status: z.enum(['parsed', 'skipped', 'failed']),
  /** Why it was skipped or failed ("no grammar", "too large", "timeout"...). */
  reason: z.string().optional(),
  /** In file order (by line, outer before inner). */
  definitions: z.array(SymbolDefinitionSchema),
  /** In file order. */
  occurrences: z.array(SymbolOccurrenceSchema),
});
export type BlobSymbols = z.infer<typeof BlobSymbolsSchema>;
