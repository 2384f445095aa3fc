import { z } from 'zod';
import { OccurrenceRoleSchema, SymbolKindSchema } from './symbols';
import { ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { FreshnessSchema } from './tools';
import { waitForCommit } from './read-your-own-push';
import { FoundFileFields } from './tool-search-code';

// Inputs and outputs of find_symbol, file_outline and find_references. Field descriptions stay
// short: every character of an input schema is paid for in every agent's context (tool budget).

/** Longest symbol name or pattern accepted (characters). */
export const MAX_SYMBOL_NAME_CHARS = 300;

const symbolName = (what: string) =>
  z
    .string({ error: `name: give ${what}` })
    .trim()
    .min(1, `name: give ${what}`)
    .max(MAX_SYMBOL_NAME_CHARS, `name: at most ${MAX_SYMBOL_NAME_CHARS} characters`);

const repositories = z
  .array(z.string().trim().min(1).max(2048), { error: 'repositories: a list of "owner/name" or "owner/*"' })
  .min(1, 'repositories: name at least one, or leave it out for every repository you can read')
  .max(100, 'repositories: at most 100 a call')
  .optional()
  .describe('"owner/name" or "owner/*" each. Default: all you can read.');

const glob = z
  .string({ error: 'path: give a glob such as "src/**/*.ts"' })
  .trim()
  .min(1, 'path: give a glob such as "src/**/*.ts", or leave it out')
  .max(1000, 'path: at most 1,000 characters a glob');
const path = z
  .union([glob, z.array(glob).min(1).max(20, 'path: at most 20 globs')], { error: 'path: a glob such as "src/**/*.ts", or a list of them' })
  .optional()
  .describe('Path glob(s): "src/**/*.ts", "*.go".');

const language = z.string().trim().min(1).max(100).optional().describe('Only this language ("TypeScript").');
const scopedRef = ref.describe('Only with repository. Default: the default branch.');
const cursor = z
  .string({ error: 'cursor: pass back next_cursor exactly as returned' })
  .min(1)
  .max(8192, 'cursor: not a cursor this server returned')
  .optional()
  .describe('next_cursor, same other arguments.');

// ---------------------------------------------------------------- find_symbol

/** Where find_symbol and find_references look: like search_code, every readable repository by default. */
const symbolScope = { repository: repository.optional(), repositories, ref: scopedRef, path, language };

export const FindSymbolInputSchema = strictInput({
  name: symbolName('a symbol name ("IndexStore"), "Container.name", or a pattern with * ("flip*")').describe('Name (case-sensitive), "Container.name" or "pat*tern".'),
  kind: SymbolKindSchema.optional().describe('Only this kind.'),
  ...symbolScope,
  limit: wholeNumber('limit', 1, 100, 'a whole number from 1 to 100').optional().describe('Results a page (default 20).'),
  cursor,
  ...waitForCommit,
});
export type FindSymbolInput = z.infer<typeof FindSymbolInputSchema>;

export const SymbolResultSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  commit: z.string(),
  path: z.string(),
  name: z.string(),
  kind: SymbolKindSchema,
  container: z.string().nullable().describe('Qualified name of the enclosing definitions, null at the top level.'),
  line: z.number().int(),
  end_line: z.number().int(),
  signature: z.string().describe('The first line(s) of the definition, whitespace collapsed.'),
  language: z.string().nullable(),
  url: z.string().describe('GitHub URL of the definition at the indexed commit.'),
});
export type SymbolResult = z.infer<typeof SymbolResultSchema>;

const searchedRepositories = z.array(z.object({ repository: z.string(), ref: z.string(), freshness: FreshnessSchema })).describe('Each repository searched, the ref and commit it searched.');

export const FindSymbolOutputSchema = z.object({
  name: z.string(),
  symbols: z.array(SymbolResultSchema).describe('Best first: exact case, source before tests/vendored/generated, outer before nested, fewer folders.'),
  total: z.number().int().describe('Definitions found (all pages).'),
  offset: z.number().int().describe('Results on earlier pages.'),
  next_cursor: z.string().nullable().describe('Pass back as cursor for the next page; null on the last page.'),
  did_you_mean: z.array(z.string()).describe('When nothing is found: symbol names close to name, best first.'),
  repositories: searchedRepositories,
});
export type FindSymbolOutput = z.infer<typeof FindSymbolOutputSchema>;

// ---------------------------------------------------------------- file_outline

export const FileOutlineInputSchema = strictInput({
  repository,
  path: z
    .string({ error: 'path: give the file path, e.g. "src/index.ts"' })
    .min(1, 'path: give the file path, e.g. "src/index.ts"')
    .max(4096, 'path: at most 1,000 characters of path (4,096 for a URL)')
    .describe('Path from the root, or a GitHub URL ".../blob/<ref>/<path>".'),
  ref,
  ...waitForCommit,
});
export type FileOutlineInput = z.infer<typeof FileOutlineInputSchema>;

export interface OutlineNode {
  name: string;
  kind: z.infer<typeof SymbolKindSchema>;
  line: number;
  end_line: number;
  signature: string;
  children: OutlineNode[];
}

export const OutlineNodeSchema: z.ZodType<OutlineNode> = z.object({
  name: z.string(),
  kind: SymbolKindSchema,
  line: z.number().int(),
  end_line: z.number().int(),
  signature: z.string(),
  get children() {
    return z.array(OutlineNodeSchema);
  },
});

export const FileOutlineOutputSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  path: z.string(),
  language: z.string().nullable(),
  status: z.enum(['parsed', 'skipped', 'failed', 'not_extracted']).describe('parsed; skipped (no grammar, too large); failed (timeout, parser error); not_extracted (indexed before symbols were).'),
  reason: z.string().optional().describe('Why it was skipped or failed.'),
  symbols: z.array(OutlineNodeSchema).describe('Definitions in file order, nested definitions under children.'),
  symbol_count: z.number().int().describe('Definitions at any depth.'),
  omitted: z.number().int().describe('Definitions left out to fit the answer: the last ones in file order.'),
  url: z.string().describe('GitHub URL of the file at the indexed commit.'),
  freshness: FreshnessSchema,
});
export type FileOutlineOutput = z.infer<typeof FileOutlineOutputSchema>;

// ---------------------------------------------------------------- find_references

export const FindReferencesInputSchema = strictInput({
  name: symbolName('an identifier such as "flipGeneration"').describe('The identifier (case-sensitive).'),
  ...symbolScope,
  limit: wholeNumber('limit', 1, 100, 'a whole number from 1 to 100 files a page').optional().describe('Files a page (default 20).'),
  cursor,
  ...waitForCommit,
});
export type FindReferencesInput = z.infer<typeof FindReferencesInputSchema>;

export const ReferenceLineSchema = z.object({
  line: z.number().int().describe('Line number (1-based), as read_file numbers lines.'),
  text: z.string().describe('The line (cut when very long).'),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])).describe('Each occurrence in the line: [start, end) in UTF-16 units of text.'),
  roles: z.array(OccurrenceRoleSchema).describe('The role of each range: definition, reference or import.'),
});
export type ReferenceLine = z.infer<typeof ReferenceLineSchema>;

export const ReferenceFileSchema = z.object({
  ...FoundFileFields,
  match_count: z.number().int().describe('Lines with occurrences in the file (matches may list fewer).'),
  matches: z.array(ReferenceLineSchema),
});
export type ReferenceFile = z.infer<typeof ReferenceFileSchema>;

export const FindReferencesOutputSchema = z.object({
  name: z.string(),
  definitions: z.array(SymbolResultSchema).describe('Definitions the name resolves to (search-based), best first.'),
  files: z.array(ReferenceFileSchema).describe('Files with occurrences, best first: definitions, source before tests/vendored/generated, more occurrences.'),
  total_files: z.number().int(),
  total_occurrences: z.number().int(),
  offset: z.number().int().describe('Files on earlier pages.'),
  next_cursor: z.string().nullable().describe('Pass back as cursor for the next page; null on the last page.'),
  complete: z.boolean().describe('False when a bound (files parsed, bytes, time) stopped the search: the text says which.'),
  repositories: searchedRepositories,
});
export type FindReferencesOutput = z.infer<typeof FindReferencesOutputSchema>;
