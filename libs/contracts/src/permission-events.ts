import { z } from 'zod';

const UserId = z.number().int().positive();
const RepositoryId = z.number().int().positive();

/**
 * What a GitHub webhook says about who may read what, normalised by the webhook service for
 * the permission mirror. Only ids and names: the mirror decides what each means for the
 * people it knows (a grant to drop, or whom to ask GitHub about again).
 */
export const PermissionEventSchema = z.discriminatedUnion('kind', [
  /** `member` added, edited or removed: one person's access to one repository changed. */
  z.object({
    kind: z.literal('collaborator'),
    action: z.enum(['added', 'edited', 'removed']),
    userId: UserId,
    login: z.string(),
    repositoryId: RepositoryId,
    fullName: z.string(),
  }),
  /** `membership` (team) or `organization` member_added / member_removed: one person's teams or organisations changed. */
  z.object({
    kind: z.literal('person'),
    source: z.enum(['membership', 'organization']),
    removed: z.boolean(),
    userId: UserId,
    login: z.string(),
    organization: z.string(),
  }),
  /** `team` (deleted, edited, added_to_repository, removed_from_repository): every member of a team may gain or lose. */
  z.object({
    kind: z.literal('team'),
    action: z.string(),
    organization: z.string(),
    repositoryId: RepositoryId.nullable(),
  }),
  /** `repository` privatized, publicized, deleted, transferred, renamed, archived, ...: who may read it can change for everyone. */
  z.object({
    kind: z.literal('repository'),
    action: z.string(),
    repositoryId: RepositoryId,
    fullName: z.string(),
    private: z.boolean(),
  }),
  /** `github_app_authorization` revoked: the person took back gitdex's authorization; every token of theirs ends. */
  z.object({
    kind: z.literal('revoked'),
    userId: UserId,
    login: z.string(),
  }),
]);
export type PermissionEvent = z.infer<typeof PermissionEventSchema>;
