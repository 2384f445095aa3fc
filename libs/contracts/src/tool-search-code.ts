import { z } from 'zod';
import { ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { FreshnessSchema } from './tools';
import { waitForCommit } from './read-your-own-push';

// search_code's input and output (moved out of tools.ts unchanged).

/** Refs one search_code call reads at most (names or globs given, and refs they match). */
export const MAX_SEARCHED_REFS = 20;

/** Longest query search_code accepts (characters). */
export const MAX_SEARCH_QUERY_CHARS = 1000;

const glob = z
  .string({ error: 'path: give a glob such as "src/**/*.ts"' })
  .trim()
  .min(1, 'path: give a glob such as "src/**/*.ts", or leave it out')
  .max(1000, 'path: at most 1,000 characters a glob');
const globs = (field: string) => z.union([glob, z.array(glob).min(1).max(20, `${field}: at most 20 globs`)], { error: `${field}: a glob such as "src/**/*.ts", or a list of them` }).optional();

export const SearchCodeInputSchema = strictInput({
  query: z
    .string({ error: 'query: give the text to find (or a regular expression with regex: true)' })
    .min(1, 'query: give the text to find (or a regular expression with regex: true)')
    .max(MAX_SEARCH_QUERY_CHARS, `query: at most ${MAX_SEARCH_QUERY_CHARS} characters`)
    .describe('Text to find line by line: a literal substring, or RE2 with regex: true.'),
  regex: z.boolean({ error: 'regex: true or false' }).optional().describe('query is an RE2 regular expression (default false).'),
  case_sensitive: z.boolean({ error: 'case_sensitive: true or false' }).optional().describe('Default: smart case.'),
  repository: repository.optional(),
  repositories: z
    .array(z.string().trim().min(1).max(2048), { error: 'repositories: a list of "owner/name" or "owner/*"' })
    .min(1, 'repositories: name at least one, or leave it out to search every repository you can read')
    .max(100, 'repositories: at most 100 a call')
    .optional()
    .describe('"owner/name" or "owner/*" each. Default: every repository you can read.'),
  ref: ref.describe('Only with repository. Default: the default branch.'),
  refs: z
    .array(
      z.string({ error: 'refs: a list of ref names or globs such as ["main", "pull/*"]' }).trim().min(1, 'refs: a ref name or glob cannot be empty').max(300, 'refs: at most 300 characters a ref'),
      {
        error: 'refs: a list of ref names or globs such as ["main", "pull/*"]',
      },
    )
    .min(1, 'refs: name at least one ref, or leave it out to search the default branch')
    .max(MAX_SEARCHED_REFS, `refs: at most ${MAX_SEARCHED_REFS} names or globs a call`)
    .optional()
    .describe(`Several refs of repository, names or globs ("pull/*"), at most ${MAX_SEARCHED_REFS}.`),
  path: globs('path').describe('Glob(s) a path must match: "src/**/*.ts"; without "/" it matches the file name ("*.go").'),
  exclude: globs('exclude').describe('Glob(s) of paths to leave out.'),
  language: z.string().trim().min(1).max(100).optional().describe('Only this language ("TypeScript").'),
  include_generated: z.boolean({ error: 'include_generated: true or false' }).optional().describe('Also search vendored and generated files.'),
  context_lines: wholeNumber('context_lines', 0, 10, 'a whole number from 0 to 10').optional().describe('Lines around each match, 0 to 10. Default 2.'),
  limit: wholeNumber('limit', 1, 100, 'a whole number from 1 to 100 files a page').optional().describe('Most files a page, 1 to 100. Default 20.'),
  cursor: z
    .string({ error: 'cursor: pass back next_cursor exactly as returned' })
    .min(1)
    .max(8192, 'cursor: not a cursor this server returned')
    .optional()
    .describe('next_cursor of the previous page, with the same other arguments.'),
  ...waitForCommit,
});
export type SearchCodeInput = z.infer<typeof SearchCodeInputSchema>;

export const SearchMatchSchema = z.object({
  line: z.number().int().describe('Line number (1-based), as read_file numbers lines.'),
  text: z.string().describe('The line (cut when very long).'),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])).describe('Each match in the line: [start, end) in UTF-16 units of text.'),
  before: z.array(z.string()).describe('context_lines lines before.'),
  after: z.array(z.string()).describe('context_lines lines after.'),
});
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

/** Which file a search-like result is about: search_code's and find_references's files alike. */
export const FoundFileFields = {
  repository: z.string(),
  path: z.string(),
  ref: z.string(),
  commit: z.string(),
  language: z.string().nullable(),
  url: z.string().describe('GitHub URL of the file at the indexed commit.'),
};

export const SearchFileSchema = z.object({
  ...FoundFileFields,
  match_count: z.number().int().describe('Matching lines in the file (matches may list fewer).'),
  matches: z.array(SearchMatchSchema),
});
export type SearchFile = z.infer<typeof SearchFileSchema>;

export const SearchCodeOutputSchema = z.object({
  query: z.string(),
  regex: z.boolean(),
  case_sensitive: z.boolean(),
  files: z.array(SearchFileSchema).describe('Best first: whole-word and exact-case matches, definitions, source before tests before vendored/generated, shorter paths.'),
  total_files: z.number().int().describe('Files that match (all pages).'),
  total_matches: z.number().int().describe('Matching lines in those files.'),
  counts_exact: z.boolean().describe('False when counting stopped early (deadline or result cap): the totals are lower bounds.'),
  complete: z
    .boolean()
    .describe(
      'False when the search stopped before every file was searched: at its deadline, or at its cap of matching files (the page ranks those found first, in path order). More files may match.',
    ),
  offset: z.number().int().describe('Files on earlier pages.'),
  next_cursor: z.string().nullable().describe('Pass back as cursor for the next page; null on the last page.'),
  skipped: z.object({ binary: z.number().int(), too_large: z.number().int() }).describe('Files in scope that were not searched: binary, or too large to keep content for.'),
  repositories: z.array(z.object({ repository: z.string(), ref: z.string(), freshness: FreshnessSchema })).describe('Each repository searched, the ref and commit it searched.'),
});
export type SearchCodeOutput = z.infer<typeof SearchCodeOutputSchema>;
