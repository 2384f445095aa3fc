// GET /repos/{owner}/{repo}/commits?sha=&path=&per_page=&page=: `git log` of a ref or sha (default
// branch when none), newest first in git's default order, with git's path simplification; Link
// pagination as GitHub gives it. Items carry no files, as on GitHub.
import { Router } from 'express';
import { repoUrls, restCommitJson } from './commit-json';
import { urlsOf, type StandInContext } from './context';
import { gitText } from './git';
import { logCommits } from './git-log';
import { resolveCommit } from './git-objects';
import { HttpError } from './http';
import { paginate } from './paginate';
import { loadRepoFacts } from './repo-json';
import { apiChain, emptyOr, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';

const DOCS = 'https://docs.github.com/rest/commits/commits#list-commits';

export function commitsRouter(ctx: StandInContext): Router {
  const router = Router();

  router.get(ROUTES.commits, ...apiChain(ctx), async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const ref = typeof req.query.sha === 'string' && req.query.sha !== '' ? req.query.sha : (await loadRepoFacts(repo)).defaultBranch;
    const path = typeof req.query.path === 'string' && req.query.path !== '' ? req.query.path.replace(/^\/+|\/+$/g, '') : undefined;
    const head = await resolveCommit(repo.dir, ref);
    if (!head) throw await emptyOr(repo, new HttpError(404, `No commit found for SHA: ${ref}`, DOCS));
    const all = await gitText(repo.dir, ['rev-list', head, '--', ...(path ? [path] : [])]);
    const shas = all === '' ? [] : all.split('\n');
    const page = paginate(req, res, shas);
    const skip = page.length === 0 ? 0 : shas.indexOf(page[0] ?? '');
    const commits = page.length === 0 ? [] : await logCommits(repo.dir, head, { skip, max: page.length, ...(path ? { path } : {}) });
    const u = repoUrls(repo, urlsOf(ctx));
    ok(
      ctx,
      req,
      res,
      commits.map((c) => restCommitJson(u, c)),
    );
  });

  return router;
}
