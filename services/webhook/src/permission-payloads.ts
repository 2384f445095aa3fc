import { z } from 'zod';
import type { PermissionEvent } from '@gitdex/contracts';
import { GitHubRepositorySchema } from './github-payloads';
import { PayloadError } from './normalize';

/** Bounds on what a permission payload may carry: GitHub logins are at most 39 characters, organisation names as well. */
const login = z.string().min(1).max(39);
const user = z.object({ id: z.number().int().positive(), login });
const org = z.object({ login });
const repository = GitHubRepositorySchema.pick({ id: true, full_name: true, private: true }).extend({ full_name: z.string().min(3).max(201) });

const MemberPayload = z.object({ action: z.enum(['added', 'edited', 'removed']), member: user, repository });
const MembershipPayload = z.object({ action: z.enum(['added', 'removed']), scope: z.string().max(40), member: user, organization: org });
const OrganizationPayload = z.object({ action: z.string().min(1).max(40), membership: z.object({ user }).optional(), organization: org });
const TeamPayload = z.object({ action: z.string().min(1).max(40), organization: org, repository: repository.optional() });
const RepositoryPayload = z.object({ action: z.string().min(1).max(40), repository: repository.required({ private: true }) });
const AuthorizationPayload = z.object({ action: z.string().min(1).max(40), sender: user });

/** The events that change who may read what; `repository` also goes through the event log as before. */
export const PERMISSION_EVENTS = new Set(['member', 'membership', 'organization', 'team', 'repository', 'github_app_authorization']);

export type PermissionNormalized = { outcome: 'permission'; event: PermissionEvent } | { outcome: 'ignored'; reason: string };

function parse<T extends z.ZodType>(schema: T, payload: unknown): z.infer<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PayloadError(issue?.path.join('.') || '(body)', issue?.message ?? 'invalid');
}

/**
 * The permission mirror's reading of a delivery; pure. Throws PayloadError when a field the
 * mirror needs is missing or out of bounds, so the sender is told 400.
 */
export function permissionEventOf(event: string, payload: unknown): PermissionNormalized {
  switch (event) {
    case 'member': {
      const p = parse(MemberPayload, payload);
      return { outcome: 'permission', event: { kind: 'collaborator', action: p.action, userId: p.member.id, login: p.member.login, repositoryId: p.repository.id, fullName: p.repository.full_name } };
    }
    case 'membership': {
      const p = parse(MembershipPayload, payload);
      return {
        outcome: 'permission',
        event: { kind: 'person', source: 'membership', removed: p.action === 'removed', userId: p.member.id, login: p.member.login, organization: p.organization.login },
      };
    }
    case 'organization': {
      const p = parse(OrganizationPayload, payload);
      if (p.action !== 'member_added' && p.action !== 'member_removed') return { outcome: 'ignored', reason: `organization ${p.action}` };
      if (!p.membership) throw new PayloadError('membership', `is required for organization ${p.action}`);
      const who = p.membership.user;
      return { outcome: 'permission', event: { kind: 'person', source: 'organization', removed: p.action === 'member_removed', userId: who.id, login: who.login, organization: p.organization.login } };
    }
    case 'team': {
      const p = parse(TeamPayload, payload);
      return { outcome: 'permission', event: { kind: 'team', action: p.action, organization: p.organization.login, repositoryId: p.repository?.id ?? null } };
    }
    case 'repository': {
      const p = parse(RepositoryPayload, payload);
      return { outcome: 'permission', event: { kind: 'repository', action: p.action, repositoryId: p.repository.id, fullName: p.repository.full_name, private: p.repository.private } };
    }
    case 'github_app_authorization': {
      const p = parse(AuthorizationPayload, payload);
      if (p.action !== 'revoked') return { outcome: 'ignored', reason: `github_app_authorization ${p.action}` };
      return { outcome: 'permission', event: { kind: 'revoked', userId: p.sender.id, login: p.sender.login } };
    }
    default:
      return { outcome: 'ignored', reason: `event ${event} does not change permissions` };
  }
}
