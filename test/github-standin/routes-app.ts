// Minimal GitHub App surface so @octokit/auth-app can get installation tokens:
// any well-formed JWT is accepted (signatures are not checked).
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { ownerType, urlsOf, type StandInContext } from './context';
import { paginate } from './paginate';
import { loadRepoFacts, userJson, repoJson } from './repo-json';
import { notFound } from './http';
import { apiChain, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';

const PERMISSIONS = { contents: 'read', metadata: 'read' };

export function appRouter(ctx: StandInContext): Router {
  const router = Router();
  const installationId = (): number => ctx.config.installationId ?? 1;

  // One installation on every account: the one holding the stand-in's repositories.
  const installationJson = (login: string) => {
    const type = ownerType(ctx, login);
    const id = installationId();
    return {
      id,
      account: userJson(login, type, urlsOf(ctx)),
      repository_selection: 'all',
      access_tokens_url: `${ctx.apiUrl}/app/installations/${id}/access_tokens`,
      repositories_url: `${ctx.apiUrl}/installation/repositories`,
      html_url: `${ctx.config.htmlBaseUrl}/settings/installations/${id}`,
      app_id: 1,
      app_slug: 'gitdex-standin',
      target_id: 1,
      target_type: type,
      permissions: PERMISSIONS,
      events: ['push', 'repository'],
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      single_file_name: null,
      suspended_at: null,
      suspended_by: null,
    };
  };

  router.get(ROUTES.repoInstallation, ...apiChain(ctx, { allowJwt: true }), async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    ok(ctx, req, res, installationJson(repo.owner));
  });

  // GitHub answers 404 for an account the App is not installed on: here, one without repositories.
  const accountInstallation = (wantOrg: boolean) => async (req: Request, res: Response) => {
    const login = String(req.params.owner);
    const repos = await ctx.store.list(login);
    if (repos.length === 0 || (ownerType(ctx, login) === 'Organization') !== wantOrg) throw notFound('https://docs.github.com/rest/apps/apps');
    ok(ctx, req, res, installationJson(repos[0]!.owner));
  };
  router.get(ROUTES.orgInstallation, ...apiChain(ctx, { allowJwt: true }), accountInstallation(true));
  router.get(ROUTES.userInstallation, ...apiChain(ctx, { allowJwt: true }), accountInstallation(false));

  router.get(ROUTES.appInstallations, ...apiChain(ctx, { allowJwt: true }), async (req, res) => {
    const repos = await ctx.store.list();
    const owner = repos[0]?.owner ?? 'standin';
    ok(ctx, req, res, paginate(req, res, [installationJson(owner)]));
  });

  router.post(ROUTES.accessTokens, ...apiChain(ctx, { allowJwt: true, rateLimit: false }), (req, res) => {
    const token = ctx.config.token ?? `ghs_${randomBytes(18).toString('hex')}`;
    ctx.mintedTokens.add(token);
    const expires = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    ok(ctx, req, res, { token, expires_at: expires, permissions: PERMISSIONS, repository_selection: 'all' }, 201);
  });

  router.get(ROUTES.installationRepos, ...apiChain(ctx), async (req, res) => {
    const repos = await ctx.store.list();
    const page = paginate(req, res, repos);
    const repositories = await Promise.all(page.map(async (r) => repoJson(r, await loadRepoFacts(r), urlsOf(ctx), ownerType(ctx, r.owner), 'rest')));
    ok(ctx, req, res, { total_count: repos.length, repository_selection: 'all', repositories });
  });

  return router;
}
