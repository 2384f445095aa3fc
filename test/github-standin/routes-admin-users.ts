// /_admin/users, /_admin/teams, /_admin/orgs/{org}/members, /_admin/oauth: set who can read what,
// and deliver the webhooks GitHub sends for each change (only when a webhook URL is configured).
import express, { Router } from 'express';
import { z } from 'zod';
import type { StandInContext } from './context';
import { HttpError } from './http';
import type { RepoHandle } from './repo-store';
import { authorizationRevokedEvent, memberEvent, membershipEvent, organizationEvent, teamEvent } from './user-events';
import { deterministicId } from './repo-store';
import { PERMISSIONS, type Permission, type StandInTeam, type UserStore } from './users';
import type { DeliveryRecord } from './webhooks';

const Access = z.record(z.string(), z.union([z.enum(PERMISSIONS), z.literal('none'), z.null()]));
const UserBody = z.object({ login: z.string().min(1).max(39), repositories: Access.optional(), deliver: z.boolean().optional() });
const TeamBody = z.object({ org: z.string().min(1), slug: z.string().min(1), members: z.array(z.string().min(1)).optional(), repositories: Access.optional(), deliver: z.boolean().optional() });
const MemberBody = z.object({ login: z.string().min(1), remove: z.boolean().optional(), deliver: z.boolean().optional() });
const OAuthBody = z.object({ client_id: z.string().min(1).optional(), client_secret: z.string().min(1).optional(), token_seconds: z.number().int().positive().nullable().optional() });

const key = (s: string): string => s.toLowerCase();

async function repoNamed(ctx: StandInContext, fullName: string): Promise<RepoHandle> {
  const [owner = '', name = ''] = fullName.split('/');
  const repo = await ctx.store.find(owner, name);
  if (!repo) throw new HttpError(422, `No repository ${fullName} (create it under the stand-in's root first)`);
  return repo;
}

export function usersSummary(users: UserStore, login: string) {
  const user = users.user(login);
  return user ? { id: user.id, login: user.login, repositories: Object.fromEntries(user.repositories) } : null;
}

export function adminUsersRouter(ctx: StandInContext, users: UserStore): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  const delivering = (deliver: boolean | undefined) => (deliver ?? true) && ctx.config.webhookUrl !== undefined;

  router.get('/users', (_req, res) => void res.json([...users.users.values()].map((u) => usersSummary(users, u.login))));

  /** Creates the person if new; each named repository gets that access ("none" or null removes it): `member` webhooks. */
  router.post('/users', async (req, res) => {
    const body = UserBody.parse(req.body ?? {});
    const user = users.ensureUser(body.login);
    const deliveries: DeliveryRecord[] = [];
    for (const [fullName, wanted] of Object.entries(body.repositories ?? {})) {
      const repo = await repoNamed(ctx, fullName);
      const had = user.repositories.get(key(fullName)) ?? null;
      const next: Permission | null = wanted === 'none' ? null : wanted;
      if (had === next) continue;
      if (next === null) user.repositories.delete(key(fullName));
      else user.repositories.set(key(fullName), next);
      if (delivering(body.deliver)) deliveries.push(await memberEvent(ctx, repo, user.login, had === null ? 'added' : next === null ? 'removed' : 'edited', next));
    }
    res.json({ user: usersSummary(users, user.login), deliveries });
  });

  /** The person takes back the app's authorization: every token ends, `github_app_authorization` revoked. */
  router.post('/users/:login/revoke', async (req, res) => {
    const user = users.user(String(req.params.login));
    if (!user) throw new HttpError(404, `No user ${String(req.params.login)}`);
    const ended = users.revokeAll(user.login);
    const deliveries = ctx.config.webhookUrl !== undefined ? [await authorizationRevokedEvent(ctx, user.login)] : [];
    res.json({ ended, deliveries });
  });

  /** Creates or changes a team: member changes send `membership`, repository changes `team`. */
  router.post('/teams', async (req, res) => {
    const body = TeamBody.parse(req.body ?? {});
    let team = users.team(body.org, body.slug);
    const deliveries: DeliveryRecord[] = [];
    if (!team) {
      team = { id: deterministicId(`team:${key(body.org)}/${key(body.slug)}`, 1_000, 9_000_000), org: body.org, slug: body.slug, members: new Set(), repositories: new Map() } satisfies StandInTeam;
      users.teams.set(key(`${body.org}/${body.slug}`), team);
      if (delivering(body.deliver)) deliveries.push(await teamEvent(ctx, team, 'created', null));
    }
    if (body.members) {
      const wanted = new Set(body.members.map(key));
      for (const login of body.members) {
        users.ensureUser(login);
        if (!users.isOrgMember(body.org, login)) {
          users.orgMembers.set(key(body.org), (users.orgMembers.get(key(body.org)) ?? new Set()).add(key(login)));
          if (delivering(body.deliver)) deliveries.push(await organizationEvent(ctx, body.org, login, 'member_added'));
        }
        if (team.members.has(key(login))) continue;
        team.members.add(key(login));
        if (delivering(body.deliver)) deliveries.push(await membershipEvent(ctx, team, login, 'added'));
      }
      for (const member of [...team.members]) {
        if (wanted.has(member)) continue;
        team.members.delete(member);
        if (delivering(body.deliver)) deliveries.push(await membershipEvent(ctx, team, users.user(member)?.login ?? member, 'removed'));
      }
    }
    for (const [fullName, wanted] of Object.entries(body.repositories ?? {})) {
      const repo = await repoNamed(ctx, fullName);
      const had = team.repositories.get(key(fullName)) ?? null;
      const next: Permission | null = wanted === 'none' ? null : wanted;
      if (had === next) continue;
      if (next === null) team.repositories.delete(key(fullName));
      else team.repositories.set(key(fullName), next);
      const action = had === null ? 'added_to_repository' : next === null ? 'removed_from_repository' : 'edited';
      if (delivering(body.deliver)) deliveries.push(await teamEvent(ctx, team, action, repo, next));
    }
    res.json({ team: { id: team.id, org: team.org, slug: team.slug, members: [...team.members], repositories: Object.fromEntries(team.repositories) }, deliveries });
  });

  router.delete('/teams/:org/:slug', async (req, res) => {
    const team = users.team(String(req.params.org), String(req.params.slug));
    if (!team) throw new HttpError(404, `No team ${String(req.params.org)}/${String(req.params.slug)}`);
    users.teams.delete(key(`${team.org}/${team.slug}`));
    res.json({ deliveries: ctx.config.webhookUrl !== undefined ? [await teamEvent(ctx, team, 'deleted', null)] : [] });
  });

  /** Adds or removes an organisation member; removal also takes the person out of the organisation's teams. */
  router.post('/orgs/:org/members', async (req, res) => {
    const org = String(req.params.org);
    const body = MemberBody.parse(req.body ?? {});
    users.ensureUser(body.login);
    const members = users.orgMembers.get(key(org)) ?? new Set<string>();
    users.orgMembers.set(key(org), members);
    const deliveries: DeliveryRecord[] = [];
    if (body.remove) {
      const was = members.delete(key(body.login));
      for (const team of users.teams.values()) if (key(team.org) === key(org)) team.members.delete(key(body.login));
      if (was && delivering(body.deliver)) deliveries.push(await organizationEvent(ctx, org, body.login, 'member_removed'));
    } else if (!members.has(key(body.login))) {
      members.add(key(body.login));
      if (delivering(body.deliver)) deliveries.push(await organizationEvent(ctx, org, body.login, 'member_added'));
    }
    res.json({ members: [...members], deliveries });
  });

  /** Registers an OAuth app (then only registered client ids are taken) and/or makes user tokens expire. */
  router.post('/oauth', (req, res) => {
    const body = OAuthBody.parse(req.body ?? {});
    if (body.client_id) users.oauthApps.set(body.client_id, body.client_secret ?? '');
    if (body.token_seconds !== undefined) users.tokenSeconds = body.token_seconds;
    res.json({ apps: [...users.oauthApps.keys()], token_seconds: users.tokenSeconds });
  });

  return router;
}
