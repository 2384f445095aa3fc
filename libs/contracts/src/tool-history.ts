import { z } from 'zod';
import { MAX_PATH_CHARS, ref, repository, strictInput, wholeNumber } from './tool-inputs';
import { FreshnessSchema } from './tools';
import { waitForCommit } from './read-your-own-push';

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
  repository: repository.describe('"owner/name" or its GitHub URL.'),
  ref: ref.describe('Branch, tag, held commit sha or main~N. Default: the default branch.'),
  path: z
    .string({ error: 'path: a file or folder path from the repository root' })
    .trim()
    .max(MAX_PATH_CHARS, `path: at most ${MAX_PATH_CHARS} characters`)
    .optional()
    .describe('Only commits changing this file or folder.'),
  author: z.string().trim().min(1).max(200).optional().describe('Author name or email contains this (any case).'),
  since: isoDate('since').describe('Committed at or after (ISO 8601).'),
  until: isoDate('until').describe('Committed at or before.'),
  limit: wholeNumber('limit', 1, MAX_COMMITS_PAGE, `a whole number from 1 to ${MAX_COMMITS_PAGE}`).optional().describe('Default 30.'),
  cursor: z.string().min(1).max(2048).optional().describe('next_cursor of the previous page.'),
  ...waitForCommit,
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
