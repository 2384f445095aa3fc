import { z } from 'zod';
import { PullRequestInfoSchema } from './documents';
import { RepositoryNameSchema } from './repository-names';

/** Kafka topic of every pipeline event; partitioned by repository id so one repository's events stay in order. */
export const EVENTS_TOPIC = 'gitdex.push.v1';
/** Where an event goes after it failed every attempt, with its reason. */
export const DEAD_LETTER_TOPIC = 'gitdex.push.v1.dlq';

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'a 40-digit lower-case hex git sha');
export const ZERO_SHA = '0'.repeat(40);
/** Commits of a push an event carries at most (the newest); GitHub's payload lists up to 2,048. */
export const MAX_PUSH_COMMITS = 64;

export const RepositoryIdentitySchema = z.object({
  id: z.number().int().positive(),
  /** Checked by GitHub's rules: the indexer builds request paths from it. */
  fullName: RepositoryNameSchema,
  defaultBranch: z.string().min(1).optional(),
  private: z.boolean().optional(),
  htmlUrl: z.string().url().optional(),
});
export type RepositoryIdentity = z.infer<typeof RepositoryIdentitySchema>;

const envelope = {
  /** Delivery id for webhook events, a generated id for requests: the idempotence key of the event. */
  eventId: z.string().min(1).max(200),
  repository: RepositoryIdentitySchema,
  installationId: z.number().int().positive().optional(),
  /** When gitdex received the delivery or request; freshness is measured from here. */
  receivedAt: z.string().datetime(),
};

export const PushEventSchema = z.object({
  kind: z.literal('push'),
  ...envelope,
  ref: z.string().min(1),
  before: sha,
  after: sha,
  created: z.boolean(),
  deleted: z.boolean(),
  forced: z.boolean(),
  pushedAt: z.string().datetime().optional(),
  /** The newest commits the push brought (GitHub's list, newest last): what a reader waiting on min_commit knows the new head contains. */
  commits: z.array(sha).max(MAX_PUSH_COMMITS).optional(),
});
export type PushEvent = z.infer<typeof PushEventSchema>;

/**
 * anonymous_lookup: queued because a caller without a token asked about a repository gitdex had
 * never seen (GITDEX_QUEUE_UNSEEN=anonymous); the indexer indexes it only within the size cap
 * of GITDEX_ANONYMOUS_BACKFILL_MAX_FILES and _MAX_BYTES.
 */
export const BackfillReasonSchema = z.enum(['cli', 'state_query', 'installation', 'reconciler', 'branch_created', 'replay', 'repository_changed', 'tag_created', 'anonymous_lookup']);

/** Asks the indexer to bring refs of a repository to GitHub's current state, whatever the index holds. */
export const BackfillEventSchema = z.object({
  kind: z.literal('backfill'),
  ...envelope,
  /** A full ref (refs/heads/x); omitted means every ref the configuration indexes. */
  ref: z.string().min(1).optional(),
  reason: BackfillReasonSchema,
});
export type BackfillEvent = z.infer<typeof BackfillEventSchema>;

/** Removes everything of a repository (or of one ref) from the index. */
export const PurgeEventSchema = z.object({
  kind: z.literal('purge'),
  ...envelope,
  ref: z.string().min(1).optional(),
  reason: z.enum(['repository_deleted', 'installation_removed', 'branch_deleted', 'cli', 'tag_deleted']),
});
export type PurgeEvent = z.infer<typeof PurgeEventSchema>;

/** Repository renamed, transferred, archived or its visibility changed: metadata to refresh. */
export const RepositoryChangedEventSchema = z.object({
  kind: z.literal('repository_changed'),
  ...envelope,
  action: z.string().min(1),
  previousFullName: RepositoryNameSchema.optional(),
});
export type RepositoryChangedEvent = z.infer<typeof RepositoryChangedEventSchema>;

/**
 * A `pull_request` delivery gitdex acts on: the head commit is indexed as ref `pull/N`
 * (opened, reopened, synchronize, edited with a new base), or retired after the retention (closed).
 */
export const PullRequestEventSchema = z.object({
  kind: z.literal('pull_request'),
  ...envelope,
  action: z.enum(['opened', 'reopened', 'synchronize', 'edited', 'closed']),
  pull: PullRequestInfoSchema,
});
export type PullRequestEvent = z.infer<typeof PullRequestEventSchema>;

export const GitdexEventSchema = z.discriminatedUnion('kind', [PushEventSchema, BackfillEventSchema, PurgeEventSchema, RepositoryChangedEventSchema, PullRequestEventSchema]);
export type GitdexEvent = z.infer<typeof GitdexEventSchema>;

/** The partition key: a repository's events share one partition and so keep their order. */
export function eventKey(event: GitdexEvent): string {
  return String(event.repository.id);
}

/** A dead letter keeps the original message, why it failed and how often it was tried. */
export const DeadLetterSchema = z.object({
  /** The message as it was in the log; replaying publishes it again. */
  raw: z.string(),
  /** The parsed event, absent when the message was not a valid event at all. */
  event: GitdexEventSchema.optional(),
  reason: z.string(),
  attempts: z.number().int().nonnegative(),
  failedAt: z.string().datetime(),
});
export type DeadLetter = z.infer<typeof DeadLetterSchema>;

/** The event a dead letter holds, if it holds a valid one: what a replay publishes again. */
export function eventOfDeadLetter(letter: DeadLetter): GitdexEvent | null {
  if (letter.event) return letter.event;
  try {
    const parsed = GitdexEventSchema.safeParse(JSON.parse(letter.raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
