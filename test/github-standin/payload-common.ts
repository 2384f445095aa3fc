// Parts shared by every webhook payload: sender, installation, organization.
import type { InstallationLite, Organization, User } from '@octokit/webhooks-types';
import { ownerType, urlsOf, type StandInContext } from './context';
import { nodeId, ownerId, userJson, type Urls } from './repo-json';

export interface PayloadParties {
  sender: User;
  installation?: InstallationLite;
  organization?: Organization;
}

export function organizationJson(login: string, urls: Urls): Organization {
  const id = ownerId(login);
  const api = `${urls.apiUrl}/orgs/${login}`;
  return {
    login,
    id,
    node_id: nodeId('Organization', id),
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    description: null,
  };
}

/** The sender is the configured login, else the owner (or "octocat" for organizations). */
export function senderLogin(ctx: StandInContext, owner: string): string {
  return ctx.config.sender ?? (ownerType(ctx, owner) === 'Organization' ? 'octocat' : owner);
}

export function payloadParties(ctx: StandInContext, owner: string): PayloadParties {
  const urls = urlsOf(ctx);
  const parties: PayloadParties = { sender: userJson(senderLogin(ctx, owner), 'User', urls) };
  const id = ctx.config.installationId;
  if (id !== undefined) parties.installation = { id, node_id: nodeId('Installation', id) };
  if (ownerType(ctx, owner) === 'Organization') parties.organization = organizationJson(owner, urls);
  return parties;
}
