import { z } from 'zod';
import { wholeNumber } from './tool-inputs';

/**
 * Read your own push (docs/design/read-your-own-push.md): the two arguments every tool that reads
 * a ref spreads into its input (`...waitForCommit`), the freshness fields they add to an answer,
 * and one served commit as the changes feed and resource notifications describe it.
 */

/** Longest wait a caller may ask for: well inside a client's usual request timeout. */
export const MAX_WAIT_MS = 10_000;
/** Wait when min_commit comes without wait_ms. */
export const DEFAULT_WAIT_MS = 5_000;

const commitPrefix = z
  .string({ error: 'min_commit: a commit sha, 7 to 40 hex digits' })
  .trim()
  .regex(/^[0-9a-fA-F]{7,40}$/, 'min_commit: a commit sha, 7 to 40 hex digits')
  .transform((sha) => sha.toLowerCase());

export const waitForCommit = {
  min_commit: commitPrefix.optional().describe('Answer once the ref serves this commit (sha) or a later one.'),
  wait_ms: wholeNumber('wait_ms', 0, MAX_WAIT_MS, `a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`)
    .optional()
    .describe('Most ms to wait for min_commit (≤10000, default 5000); then answers stale.'),
};

/** Fields every answer's freshness carries beside the commit it shows. */
export const freshnessWaitFields = {
  served_at: z.string().nullable().optional().describe('When the ref started serving this commit (ISO 8601).'),
  lag_ms: z.number().int().nullable().optional().describe('Push received to served, in ms (null when no push led to it).'),
  stale: z.literal(true).optional().describe('min_commit is not served yet: wait_ms ran out and this shows an older commit.'),
  wanted_commit: z.string().optional().describe('With stale: the min_commit asked for.'),
};

/** One commit a ref started serving: what GET .../changes and resource notifications report. */
export const ServedCommitSchema = z.object({
  ref: z.string().describe('The full ref, e.g. refs/heads/main.'),
  sha: z.string(),
  pushed_at: z.string().nullable().describe('When gitdex received the push that led to it.'),
  served_at: z.string().nullable().describe('When the ref started serving it.'),
  lag_ms: z.number().int().nullable(),
  paths: z.array(z.string()).describe('Paths it added, changed or removed against the commit served before it (at most 100).'),
  paths_complete: z.boolean().describe('False when more paths changed than are listed, or the change is not known.'),
});
export type ServedCommit = z.infer<typeof ServedCommitSchema>;

export const ChangesOutputSchema = z.object({
  repository: z.string(),
  changes: z.array(ServedCommitSchema).describe('Commits served after since, oldest first.'),
  /** Pass back as since to go on. */
  cursor: z.string().nullable(),
});
export type ChangesOutput = z.infer<typeof ChangesOutputSchema>;
