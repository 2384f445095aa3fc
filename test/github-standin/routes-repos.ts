// Repository, branch and commit endpoints.
import { Router, type Request, type Response } from 'express';
import { branchJson, branchListItemJson, repoUrls, restCommitJson } from './commit-json';
import { ownerType, urlsOf, type StandInContext } from './context';
import { diffCommitsWithPatches } from './git-diff';
import { readCommit, resolveCommit } from './git-objects';
import { branchSha, listBranches } from './git-refs';
import { HttpError, notFound, wildcard } from './http';
import { paginate } from './paginate';
import { loadRepoFacts, restRepoJson } from './repo-json';
import { apiChain, emptyOr, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';

const DOCS = {
  branch: 'https://docs.github.com/rest/branches/branches#get-a-branch',
  commit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
  userRepos: 'https://docs.github.com/rest/repos/repos#list-repositories-for-the-authenticated-user',
};

export function reposRouter(ctx: StandInContext): Router {
  const router = Router();
  const chain = apiChain(ctx);

  router.get(ROUTES.repo, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    ok(ctx, req, res, restRepoJson(repo, await loadRepoFacts(repo), urlsOf(ctx), ownerType(ctx, repo.owner)));
  });

  router.get(ROUTES.branches, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const u = repoUrls(repo, urlsOf(ctx));
    const branches = await listBranches(repo.dir);
    ok(
      ctx,
      req,
      res,
      paginate(req, res, branches).map((b) => branchListItemJson(u, b.name, b.sha)),
    );
  });

  router.get(ROUTES.branch, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const name = wildcard(req.params.branch);
    const sha = await branchSha(repo.dir, name);
    const commit = sha && (await readCommit(repo.dir, sha));
    if (!commit) throw new HttpError(404, 'Branch not found', DOCS.branch);
    ok(ctx, req, res, branchJson(repoUrls(repo, urlsOf(ctx)), name, commit));
  });

  router.get(ROUTES.commit, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const ref = wildcard(req.params.ref);
    const sha = await resolveCommit(repo.dir, ref);
    const commit = sha && (await readCommit(repo.dir, sha));
    if (!commit) throw await emptyOr(repo, new HttpError(422, `No commit found for SHA: ${ref}`, DOCS.commit));
    if (/application\/vnd\.github(\.v3)?\.sha/.test(req.get('accept') ?? '')) {
      res.status(200).setHeader('content-type', 'application/vnd.github.sha; charset=utf-8');
      res.send(commit.sha);
      return;
    }
    // GitHub's commit lists renames (compare too) and each file's patch; push payloads do neither.
    const files = await diffCommitsWithPatches(repo.dir, commit.parents[0] ?? null, commit.sha);
    ok(ctx, req, res, restCommitJson(repoUrls(repo, urlsOf(ctx)), commit, files));
  });

  const listOwnerRepos = (kind: 'users' | 'orgs') => async (req: Request, res: Response) => {
    const login = String(req.params.owner);
    const repos = (await ctx.store.list(login)).filter((r) => !r.private || res.locals.authenticated === true);
    const isOrg = ownerType(ctx, login) === 'Organization';
    if (repos.length === 0 || (kind === 'orgs' && !isOrg)) throw notFound();
    const page = paginate(req, res, repos);
    const bodies = await Promise.all(page.map(async (r) => restRepoJson(r, await loadRepoFacts(r), urlsOf(ctx), ownerType(ctx, r.owner))));
    ok(ctx, req, res, bodies);
  };
  // The token's own list: every repository it can read (here, all of them), sorted by full name
  // as GitHub's default for this endpoint; an unauthenticated request gets 401 as on GitHub.
  router.get(ROUTES.authenticatedUserRepos, ...chain, async (req, res) => {
    if (res.locals.authenticated !== true) throw new HttpError(401, 'Requires authentication', DOCS.userRepos);
    const repos = (await ctx.store.list()).sort((a, b) => `${a.owner}/${a.name}`.toLowerCase().localeCompare(`${b.owner}/${b.name}`.toLowerCase()));
    const page = paginate(req, res, repos);
    ok(ctx, req, res, await Promise.all(page.map(async (r) => restRepoJson(r, await loadRepoFacts(r), urlsOf(ctx), ownerType(ctx, r.owner)))));
  });
  router.get(ROUTES.userRepos, ...chain, listOwnerRepos('users'));
  router.get(ROUTES.orgRepos, ...chain, listOwnerRepos('orgs'));

  return router;
}
