import { z } from 'zod';
import { MAX_PATH_CHARS, ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { FreshnessSchema } from './tools';

// list_commits' input and output. compare and blame keep theirs beside these.

/** Most commits one list_commits page holds. */
export const MAX_COMMITS_PAGE = 100;

const isoDate = (field: string) =>
  z
    .string({ error: `${field}: an ISO 8601 date or time, e.g. "2026-01-31" or "2026-01-31T12:00:00Z"` })
    .trim()
    .refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), `${field}: an ISO 8601 date or time, e.g. "2026-01-31" or "2026-01-31T12:00:00Z"`)
    .optional();

export const ListCommitsInputSchema = strictInput({
  repository,
  ref,
  path: z
    .string({ error: 'path: a file or folder path from the repository root' })
    .trim()
    .max(MAX_PATH_CHARS, `path: at most ${MAX_PATH_CHARS} characters`)
    .optional()
    .describe('Only commits that changed this file or folder (git log -- path).'),
  author: z.string().trim().min(1).max(200).optional().describe('Only commits whose author name or email contains this (case-insensitive).'),
  since: isoDate('since').describe('Only commits committed at or after this time.'),
  until: isoDate('until').describe('Only commits committed at or before this time.'),
  limit: wholeNumber('limit', 1, MAX_COMMITS_PAGE, `a whole number from 1 to ${MAX_COMMITS_PAGE}`).optional().describe(`Commits a page, 1 to ${MAX_COMMITS_PAGE}. Default 30.`),
  cursor: z.string().min(1).max(2048).optional().describe('next_cursor of the previous page, other arguments unchanged.'),
});
export type ListCommitsInput = z.infer<typeof ListCommitsInputSchema>;

const PersonOutputSchema = z.object({ name: z.string(), email: z.string(), date: z.string().describe('ISO 8601, UTC.') });

export const CommitOutputSchema = z.object({
  sha: z.string(),
  parents: z.array(z.string()),
  author: PersonOutputSchema,
  committed_at: z.string(),
  message: z.string(),
  files_changed: z.number().int().describe('Files changed against the first parent (at least this many when files_complete is false).'),
  files_complete: z.literal(false).optional(),
  url: z.string(),
});
export type CommitOutput = z.infer<typeof CommitOutputSchema>;

export const ListCommitsOutputSchema = z.object({
  repository: z.string(),
  ref: z.string(),
  path: z.string().optional(),
  commits: z.array(CommitOutputSchema),
  next_cursor: z.string().optional(),
  history_held: z.number().int().describe('Commits of this ref the index holds; older ones are not listed.'),
  reached_oldest_held: z.boolean().describe('True when the listing reached the oldest commit held: git may know older ones.'),
  freshness: FreshnessSchema,
});
export type ListCommitsOutput = z.infer<typeof ListCommitsOutputSchema>;
