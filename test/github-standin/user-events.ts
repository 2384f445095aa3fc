// Webhook payloads GitHub sends when who can read what changes: member, membership, team,
// organization, github_app_authorization. Shapes follow @octokit/webhooks-types.
import type { StandInContext } from './context';
import { ownerType, urlsOf } from './context';
import { organizationJson, payloadParties } from './payload-common';
import { loadRepoFacts, nodeId, repoJson, userJson } from './repo-json';
import type { RepoHandle } from './repo-store';
import type { Permission, StandInTeam } from './users';
import type { DeliveryRecord } from './webhooks';

async function repository(ctx: StandInContext, repo: RepoHandle) {
  return repoJson(repo, await loadRepoFacts(repo), urlsOf(ctx), ownerType(ctx, repo.owner), 'event');
}

function person(ctx: StandInContext, login: string) {
  return userJson(login, 'User', urlsOf(ctx));
}

export function teamJson(ctx: StandInContext, team: StandInTeam, permission: Permission | null = null) {
  const api = `${ctx.apiUrl}/organizations/${organizationJson(team.org, urlsOf(ctx)).id}/team/${team.id}`;
  return {
    name: team.slug,
    id: team.id,
    node_id: nodeId('Team', team.id),
    slug: team.slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    url: api,
    html_url: `${ctx.config.htmlBaseUrl}/orgs/${team.org}/teams/${team.slug}`,
    members_url: `${api}/members{/member}`,
    repositories_url: `${api}/repos`,
    permission: permission === null ? 'pull' : permission === 'read' ? 'pull' : permission === 'write' ? 'push' : permission,
    parent: null,
  };
}

/** `member` added / edited / removed: a person's collaborator access to one repository. */
export async function memberEvent(ctx: StandInContext, repo: RepoHandle, login: string, action: 'added' | 'edited' | 'removed', permission: Permission | null): Promise<DeliveryRecord> {
  const changes = action === 'removed' ? {} : { changes: { permission: { to: permission ?? 'read' } } };
  return ctx.webhooks.deliver('member', { action, ...changes, member: person(ctx, login), repository: await repository(ctx, repo), ...payloadParties(ctx, repo.owner) });
}

/** `membership` added / removed (scope team): a person joined or left a team. */
export function membershipEvent(ctx: StandInContext, team: StandInTeam, login: string, action: 'added' | 'removed'): Promise<DeliveryRecord> {
  const parties = payloadParties(ctx, team.org);
  return ctx.webhooks.deliver('membership', { action, scope: 'team', member: person(ctx, login), team: teamJson(ctx, team), ...parties, organization: organizationJson(team.org, urlsOf(ctx)) });
}

/** `team` added_to_repository / removed_from_repository / edited / deleted / created. */
export async function teamEvent(ctx: StandInContext, team: StandInTeam, action: string, repo: RepoHandle | null, permission: Permission | null = null): Promise<DeliveryRecord> {
  const parties = payloadParties(ctx, team.org);
  return ctx.webhooks.deliver('team', {
    action,
    team: teamJson(ctx, team, permission),
    ...(repo ? { repository: await repository(ctx, repo) } : {}),
    ...(action === 'edited' ? { changes: {} } : {}),
    ...parties,
    organization: organizationJson(team.org, urlsOf(ctx)),
  });
}

/** `organization` member_added / member_removed. */
export function organizationEvent(ctx: StandInContext, org: string, login: string, action: 'member_added' | 'member_removed'): Promise<DeliveryRecord> {
  const urls = urlsOf(ctx);
  const membership = { url: `${ctx.apiUrl}/orgs/${org}/memberships/${login}`, state: 'active', role: 'member', organization_url: `${ctx.apiUrl}/orgs/${org}`, user: person(ctx, login) };
  return ctx.webhooks.deliver('organization', { action, membership, ...payloadParties(ctx, org), organization: organizationJson(org, urls) });
}

/** `github_app_authorization` revoked: the person took back the app's authorization; only a sender. */
export function authorizationRevokedEvent(ctx: StandInContext, login: string): Promise<DeliveryRecord> {
  return ctx.webhooks.deliver('github_app_authorization', { action: 'revoked', sender: person(ctx, login) });
}
