import { z } from 'zod';

/**
 * Inputs and outputs of the reader tools (MCP) and of the REST API that mirrors them.
 * Output schemas describe what a tool result's `structuredContent` holds. Every
 * output says which indexed commit it shows and whether a newer push is pending.
 *
 * Inputs are strict: an unknown argument (a typo such as `start` for `start_line`)
 * is refused rather than silently ignored.
 */

export const TOOL_NAMES = [
  'read_file',
  'list_files',
  'repository_overview',
  'repositories_state',
  'suggest_paths',
  'search_code',
  'find_symbol',
  'file_outline',
  'find_references',
  'list_commits',
  'compare',
  'blame',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

import { lineNumber, ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { freshnessWaitFields, waitForCommit } from './read-your-own-push';

/** What a result shows and whether it is the newest: the indexed commit and any push not indexed yet. */
export const FreshnessSchema = z.object({
  commit: z.string().describe('The indexed commit this answer shows.'),
  indexed_at: z.string().nullable().describe('When that commit was indexed (ISO 8601).'),
  pending: z.boolean().describe('True when a newer push of this ref is received but not indexed yet: the answer may be behind GitHub by that push.'),
  pending_commit: z.string().optional().describe('The pushed commit that is being indexed, when pending.'),
  older_commit: z.literal(true).optional().describe("This answer shows an older commit the index still holds, not the ref's newest (ref_head)."),
  ref_head: z.string().optional().describe('With older_commit: the newest indexed commit of the ref.'),
  ...freshnessWaitFields,
});
export type Freshness = z.infer<typeof FreshnessSchema>;

/** Only the flags that apply are present (`{}` for most files): every listed file would otherwise carry four falses. */
export const FileFlagsOutputSchema = z
  .object({
    binary: z.literal(true).optional().describe('Not text: content is not shown.'),
    vendored: z.literal(true).optional().describe('Third-party code kept in the repository (node_modules, vendor/, ...).'),
    generated: z.literal(true).optional().describe('Produced by a tool (lock files, minified bundles, generated code).'),
    too_large: z.literal(true).optional().describe('Larger than the index keeps content for: listed, content not stored.'),
  })
  .describe('Only the flags that apply, each true; {} for a plain text file.');
export type FileFlagsOutput = z.infer<typeof FileFlagsOutputSchema>;

const kind = z.enum(['file', 'symlink', 'submodule']).describe('file, symlink (content is its target) or submodule (a commit of another repository).');

// ---------------------------------------------------------------- read_file

export const ReadFileInputSchema = strictInput({
  // Optional when path is the published URL of a document (GITDEX_PUBLISHED_SITES names the repository).
  repository: repository.optional(),
  path: z
    .string({ error: 'path: give the file path, e.g. "src/index.ts"' })
    .min(1, 'path: give the file path, e.g. "src/index.ts"')
    .max(4096, 'path: at most 1,000 characters of path (4,096 for a URL)')
    .describe('Path from the repository root ("src/index.ts"), a GitHub URL ".../blob/<ref>/<path>#L10-L20" (gives ref and lines too), or a published document URL.'),
  ref,
  start_line: lineNumber('start_line').describe('First line, from 1 (default 1).'),
  end_line: lineNumber('end_line').describe('Last line, inclusive. Default: as far as the limits allow.'),
  // Byte-addressed reading (read fidelity): any of these three reads bytes instead of lines.
  offset: wholeNumber('offset', 0, Number.MAX_SAFE_INTEGER, 'a byte offset from the start of the file, 0 or more (pass back next_offset to read on)')
    .optional()
    .describe('Read bytes from this offset instead of lines.'),
  max_bytes: wholeNumber('max_bytes', 1, Number.MAX_SAFE_INTEGER, 'a whole number of bytes, 1 or more').optional().describe('Most bytes a byte read returns (default and most 65,536).'),
  encoding: z.enum(['text', 'base64'], { error: 'encoding: "text" (default) or "base64"' }).optional().describe('Byte read as "text" (default) or "base64" (exact bytes).'),
  ...waitForCommit,
});
export type ReadFileInput = z.infer<typeof ReadFileInputSchema>;

export const ReadFileOutputSchema = z.object({
  repository: z.string().describe('owner/name as indexed.'),
  ref: z.string().describe('The full ref read, e.g. refs/heads/main.'),
  path: z.string(),
  kind,
  size: z.number().int().describe('Size in bytes.'),
  language: z.string().nullable(),
  flags: FileFlagsOutputSchema,
  target: z.string().optional().describe('Symlink target, or the commit a submodule points at.'),
  note: z.string().optional().describe('Why no or not all content is shown (binary, too large, symlink, submodule, vendored, generated, a cut line).'),
  content: z.string().describe('The lines read, as they are in the file (without line numbers), joined by "\\n". Empty when the file has no readable text.'),
  start_line: z.number().int().describe('Number of the first line in content (0 when there is none).'),
  end_line: z.number().int().describe('Number of the last line in content (0 when there is none).'),
  total_lines: z.number().int().describe('Number of lines of the whole file.'),
  complete: z.boolean().describe('True when content reaches the last line of the file (and no line was cut).'),
  truncated: z.boolean().describe('True when the limits stopped the read before the end asked for.'),
  cut_line: z.number().int().nullable().describe('A line longer than the character limit that was cut, or null.'),
  next_start_line: z.number().int().nullable().describe('Where to read on (start_line of the next call), or null at the end of the file.'),
  url: z.string().describe('GitHub URL of these lines at the indexed commit.'),
  freshness: FreshnessSchema,
  // Read fidelity: how to rebuild the file exactly, and byte reads.
  file_encoding: z.enum(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']).nullable().optional().describe('The encoding the text was decoded from (null: binary or not stored).'),
  bom: z.literal(true).optional().describe('The file starts with a byte-order mark, left out of content.'),
  line_ending: z
    .enum(['lf', 'crlf', 'cr', 'mixed', 'none'])
    .optional()
    .describe('The line ends of the file: content always joins lines with "\\n"; join them with this ("mixed": read bytes to rebuild exactly).'),
  ends_with_newline: z.boolean().optional().describe('The file ends with a line end.'),
  content_encoding: z.enum(['text', 'base64']).optional().describe('On a byte read: content is decoded text or the bytes in base64.'),
  offset: z.number().int().optional().describe('On a byte read: the byte of the file content starts at.'),
  bytes: z.number().int().optional().describe('On a byte read: how many bytes of the file content holds.'),
  next_offset: z.number().int().nullable().optional().describe('On a byte read: the offset to read on from, or null at the end of the file.'),
  published_url: z.string().optional().describe('The published URL this document was read by.'),
  front_matter: z
    .object({ title: z.string().optional(), date: z.string().optional(), tags: z.array(z.string()).optional(), fields: z.record(z.string(), z.string()), body_start_line: z.number().int() })
    .optional()
    .describe("A published document's front matter, parsed; the lines read start at the body (body_start_line) unless start_line says otherwise."),
});
export type ReadFileOutput = z.infer<typeof ReadFileOutputSchema>;

// ---------------------------------------------------------------- list_files

export const ListFilesInputSchema = strictInput({
  repository,
  folder: z
    .string({ error: 'folder: give a folder path such as "src", or leave it out for the root' })
    .max(4096, 'folder: at most 1,000 characters of path (4,096 for a URL)')
    .optional()
    .describe('Folder from the root ("src/api"; omitted: the root) or a GitHub URL ".../tree/<ref>/<folder>".'),
  ref,
  depth: wholeNumber('depth', 1, 64, "a whole number from 1 (the folder's own entries) to 64").optional().describe('Levels to list, 1 (default) to 64.'),
  limit: wholeNumber('limit', 1, 1000, 'a whole number from 1 to 1,000 entries a page (page on with cursor)').optional().describe('Most entries a page, 1 to 1,000. Default 200.'),
  cursor: z
    .string({ error: 'cursor: pass back next_cursor exactly as returned' })
    .min(1, 'cursor: pass back next_cursor exactly as returned, or leave it out')
    .max(4096, 'cursor: not a cursor this server returned')
    .optional()
    .describe('next_cursor of the previous page, unchanged.'),
  ...waitForCommit,
});
export type ListFilesInput = z.infer<typeof ListFilesInputSchema>;

export const FolderEntrySchema = z.object({
  type: z.literal('folder'),
  path: z.string().describe('Path from the repository root.'),
  name: z.string(),
  file_count: z.number().int().describe('Number of files under the folder, at any depth.'),
});
export const FileEntrySchema = z.object({
  type: z.literal('file'),
  path: z.string().describe('Path from the repository root.'),
  name: z.string(),
  kind,
  size: z.number().int().describe('Size in bytes.'),
  language: z.string().nullable(),
  flags: FileFlagsOutputSchema,
  target: z.string().optional(),
});
export const ListEntrySchema = z.discriminatedUnion('type', [FolderEntrySchema, FileEntrySchema]);
export type FolderEntry = z.infer<typeof FolderEntrySchema>;
export type FileEntry = z.infer<typeof FileEntrySchema>;
export type ListEntry = z.infer<typeof ListEntrySchema>;

export const ListFilesOutputSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  folder: z.string().describe('The folder listed, "" for the root.'),
  depth: z.number().int(),
  entries: z.array(ListEntrySchema).describe('Folders first (with file counts), then files (with sizes), each by path.'),
  total_entries: z.number().int().describe('Folders and files in the whole listing, all pages.'),
  offset: z.number().int().describe('How many entries came on earlier pages.'),
  remaining: z.number().int().describe('Entries after this page (left out of it).'),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page.'),
  url: z.string().describe('GitHub URL of the folder at the listed commit.'),
  superseded_by: z.string().optional().describe('A newer commit indexed since this listing started; start again without cursor to list it.'),
  freshness: FreshnessSchema,
});
export type ListFilesOutput = z.infer<typeof ListFilesOutputSchema>;

// ---------------------------------------------------------------- pull requests (overview and state)

/** An open pull request as repository_overview and repositories_state list it. */
export const PullRequestSummarySchema = z.object({
  number: z.number().int(),
  ref: z.string().describe('Read or search it with this ref ("pull/N").'),
  title: z.string(),
  author: z.string().nullable(),
  draft: z.boolean(),
  base_ref: z.string(),
  head_sha: z.string(),
  updated_at: z.string(),
  indexed: z.boolean().describe('False while its head is not readable yet.'),
});
export type PullRequestSummary = z.infer<typeof PullRequestSummarySchema>;

const pullRequests = {
  pull_requests: z.array(PullRequestSummarySchema).describe('Open pull requests, most recently updated first.'),
  pull_requests_omitted: z.number().int().describe('Open pull requests left out of that list.'),
};

// ---------------------------------------------------------------- repository_overview

export const RepositoryOverviewInputSchema = strictInput({ repository, ref, ...waitForCommit });
export type RepositoryOverviewInput = z.infer<typeof RepositoryOverviewInputSchema>;

export const RepositoryOverviewOutputSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  default_branch: z.string(),
  html_url: z.string(),
  archived: z.boolean(),
  file_count: z.number().int(),
  code_files: z.number().int(),
  documentation_files: z.number().int(),
  total_bytes: z.number().int(),
  languages: z.array(z.object({ language: z.string(), files: z.number().int() })).describe('By number of files, most first.'),
  top_level: z.array(ListEntrySchema).describe('Folders (with file counts), then files, at the root.'),
  top_level_omitted: z.number().int().describe('Root entries left out; list them with list_files.'),
  readme: z
    .object({
      path: z.string(),
      content: z.string().describe('The first characters of the README.'),
      truncated: z.boolean().describe('True when the README is longer: read the rest with read_file.'),
      total_chars: z.number().int(),
    })
    .nullable()
    .describe('The README at the root, null when there is none.'),
  ...pullRequests,
  freshness: FreshnessSchema,
});
export type RepositoryOverviewOutput = z.infer<typeof RepositoryOverviewOutputSchema>;

// ---------------------------------------------------------------- repositories_state

export const RepositoriesStateInputSchema = strictInput({
  repositories: z
    .array(repository, { error: 'repositories: a list of "owner/name" strings' })
    .max(100, 'repositories: at most 100 a call')
    .optional()
    .describe('Repositories to report on ("owner/name" or GitHub URLs); omitted = every repository you can read.'),
});
export type RepositoriesStateInput = z.infer<typeof RepositoriesStateInputSchema>;

export const RepositoryStateSchema = z.object({
  repository: z.string().describe('owner/name as indexed, or as asked when unknown.'),
  indexed: z.boolean().describe('True when a commit of the default branch can be read.'),
  status: z
    .enum(['ready', 'indexing', 'failed', 'not_indexed', 'unknown'])
    .describe(
      'ready; indexing (a first index runs); failed (the last attempt failed: the previous commit, if any, is served); not_indexed (known, no index yet); unknown (gitdex never received an event for it).',
    ),
  default_branch: z.string().nullable(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  indexed_at: z.string().nullable(),
  file_count: z.number().int(),
  last_error: z.string().nullable(),
  pending: z.boolean().describe('A newer push is received but not indexed yet.'),
  pending_commit: z.string().optional(),
  backfill_queued: z.boolean().describe('This call queued an index of the repository.'),
  other_refs: z.array(z.object({ ref: z.string(), commit: z.string().nullable(), status: z.string() })).describe('Other indexed refs (branches, tags).'),
  ...pullRequests,
  message: z.string().describe('What the state means and what to do next.'),
});
export type RepositoryState = z.infer<typeof RepositoryStateSchema>;

export const RepositoriesStateOutputSchema = z.object({
  repositories: z.array(RepositoryStateSchema),
  omitted: z.number().int().describe('Repositories left out to keep the answer short; name them to see them.'),
});
export type RepositoriesStateOutput = z.infer<typeof RepositoriesStateOutputSchema>;

// ---------------------------------------------------------------- suggest_paths

export const SuggestPathsInputSchema = strictInput({
  repository,
  query: z
    .string({ error: 'query: give a path, a part of one, or a file name' })
    .min(1, 'query: give a path, a part of one, or a file name')
    .max(1000, 'query: at most 1,000 characters')
    .describe('A path as remembered, e.g. "src/compnents/Buton.tsx" or "butto".'),
  ref,
  limit: wholeNumber('limit', 1, 50, 'a whole number from 1 to 50').optional().describe('Most suggestions, 1 to 50. Default 10.'),
  ...waitForCommit,
});
export type SuggestPathsInput = z.infer<typeof SuggestPathsInputSchema>;

export const SuggestionSchema = z.object({
  path: z.string(),
  score: z.number().describe('0 to 1: how well the path matches the query.'),
  reason: z.string().describe('Why it matches: exact, case, moved, prefix, name, extension, style, typo, folder, fuzzy.'),
});
export type Suggestion = z.infer<typeof SuggestionSchema>;

export const SuggestPathsOutputSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  query: z.string(),
  suggestions: z.array(SuggestionSchema).describe('Best first.'),
  freshness: FreshnessSchema,
});
export type SuggestPathsOutput = z.infer<typeof SuggestPathsOutputSchema>;

/** Error body of the REST API; MCP returns the same message as a tool result with isError. */
export const ToolErrorCodeSchema = z.enum(['INVALID_ARGUMENT', 'NOT_FOUND', 'REPOSITORY_NOT_FOUND', 'NOT_INDEXED', 'CURSOR_EXPIRED', 'UNAVAILABLE', 'UNAUTHENTICATED', 'FORBIDDEN', 'INTERNAL']);
export type ToolErrorCode = z.infer<typeof ToolErrorCodeSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({
    code: ToolErrorCodeSchema,
    message: z.string().describe('What went wrong and what to do next.'),
    suggestions: z.array(z.string()).optional().describe('Paths or repositories the caller may have meant, best first.'),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
