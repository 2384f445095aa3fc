import { z } from 'zod';
import { lineNumber, MAX_PATH_CHARS, ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { FreshnessSchema } from './tools';
import { waitForCommit } from './read-your-own-push';

// compare and blame: the change between two commits and who last changed each line, from the
// history the index holds, as `git diff -M base...head` and `git blame` answer.

/** Files on one page of compare at most, and characters of patches on it. */
export const COMPARE_PAGE_FILES = 30;
export const COMPARE_PAGE_PATCH_CHARS = 60_000;
/** One file's patch is cut past this many characters (patch_truncated says so). */
export const COMPARE_FILE_PATCH_CHARS = 20_000;

const refOf = (field: string) =>
  z
    .string({ error: `${field}: give a branch, tag, "pull/N", a commit sha or prefix, or "ref~N"` })
    .trim()
    .min(1, `${field}: give a branch, tag, "pull/N", a commit sha or prefix, or "ref~N"`)
    .max(300, `${field}: at most 300 characters`);

const path = z
  .string({ error: 'path: a file or folder path such as "src/"' })
  .trim()
  .min(1, 'path: a file or folder path such as "src/", or leave it out')
  .max(MAX_PATH_CHARS, `path: at most ${MAX_PATH_CHARS} characters`);

export const CompareInputSchema = strictInput({
  repository,
  base: refOf('base').describe('Branch, tag, pull/N, commit sha or prefix, or ref~N.'),
  head: refOf('head').describe('Same forms as base.'),
  path: path.optional().describe('Only this file, or files under this folder.'),
  context_lines: wholeNumber('context_lines', 0, 20, 'a whole number from 0 to 20').optional().describe('Context lines, 0 to 20 (default 3).'),
  cursor: z.string({ error: 'cursor: pass back next_cursor exactly as returned' }).min(1).max(2048).optional().describe('next_cursor of the previous page.'),
  ...waitForCommit,
});
export type CompareInput = z.infer<typeof CompareInputSchema>;

const commitEnd = z.object({ ref: z.string(), commit: z.string() });

export const CompareFileSchema = z.object({
  path: z.string(),
  previous_path: z.string().optional().describe('The path before a rename.'),
  status: z.enum(['added', 'removed', 'modified', 'renamed']),
  additions: z.number(),
  deletions: z.number(),
  binary: z.boolean(),
  patch: z.string().optional().describe('The hunks as `git diff` prints them from the first @@; absent for binary files.'),
  patch_truncated: z.literal(true).optional(),
});
export type CompareFile = z.infer<typeof CompareFileSchema>;

export const CompareOutputSchema = z.object({
  repository: z.string(),
  base: commitEnd,
  head: commitEnd,
  merge_base: z.string(),
  files: z.array(CompareFileSchema),
  total_files: z.number(),
  next_cursor: z.string().optional(),
  limits: z.string().describe('What this page left out, and the limits that apply.'),
  freshness: FreshnessSchema,
});
export type CompareOutput = z.infer<typeof CompareOutputSchema>;

export const BlameInputSchema = strictInput({
  repository,
  path: path.describe('The file path from the repository root.'),
  ref,
  start_line: lineNumber('start_line').describe('First line to blame, from 1. Default 1.'),
  end_line: lineNumber('end_line').describe('Last line, inclusive. Default: the end of the file.'),
  ...waitForCommit,
});
export type BlameInput = z.infer<typeof BlameInputSchema>;

export const BlameCommitSchema = z.object({
  sha: z.string(),
  author: z.object({ name: z.string(), email: z.string() }),
  date: z.string().describe('Author date, ISO 8601.'),
  summary: z.string().describe('First line of the message.'),
});

export const BlameRangeSchema = z.object({
  start_line: z.number(),
  end_line: z.number(),
  commit: BlameCommitSchema,
  boundary: z.literal(true).optional().describe('The oldest commit held: these lines may be older.'),
  path: z.string().optional().describe('The path the lines had in that commit, when it differs.'),
});
export type BlameRange = z.infer<typeof BlameRangeSchema>;

export const BlameOutputSchema = z.object({
  repository: z.string(),
  path: z.string(),
  ref: z.string(),
  commit: z.string(),
  total_lines: z.number(),
  ranges: z.array(BlameRangeSchema),
  freshness: FreshnessSchema,
});
export type BlameOutput = z.infer<typeof BlameOutputSchema>;
