// GET /repos/{owner}/{repo}/compare/{base}...{head}: commits and changed files (no patches), from the
// merge base as GitHub does (three dots), renames detected, at most 300 files and 250 commits (oldest first).
import { Router } from 'express';
import { fileJson, repoUrls, restCommitJson } from './commit-json';
import { urlsOf, type StandInContext } from './context';
import { diffCommits } from './git-diff';
import { mergeBase, readCommit, resolveCommit, revList, type CommitInfo } from './git-objects';
import { HttpError, notFound, wildcard } from './http';
import { apiChain, emptyOr, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';

const DOCS = 'https://docs.github.com/rest/commits/commits#compare-two-commits';

function compareStatus(ahead: number, behind: number): string {
  if (ahead > 0 && behind > 0) return 'diverged';
  if (ahead > 0) return 'ahead';
  return behind > 0 ? 'behind' : 'identical';
}

export function compareRouter(ctx: StandInContext): Router {
  const router = Router();

  router.get(ROUTES.compare, ...apiChain(ctx), async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const basehead = wildcard(req.params.basehead);
    const [baseRef = '', headRef = ''] = basehead.split('...');
    const [base, head] = await Promise.all([resolveCommit(repo.dir, baseRef), resolveCommit(repo.dir, headRef)]);
    if (!base || !head || !basehead.includes('...')) throw await emptyOr(repo, notFound(DOCS));
    const fork = await mergeBase(repo.dir, base, head);
    // GitHub compares from the merge base, and unrelated histories have none.
    if (!fork) throw new HttpError(404, `No common ancestor between ${baseRef} and ${headRef}.`, DOCS);
    const [ahead, behind] = await Promise.all([revList(repo.dir, head, [base]), revList(repo.dir, base, [head])]);
    const files = await diffCommits(repo.dir, fork ?? null, head, { renames: true });
    const read = async (sha: string): Promise<CommitInfo> => {
      const commit = await readCommit(repo.dir, sha);
      if (!commit) throw notFound(DOCS);
      return commit;
    };
    const u = repoUrls(repo, urlsOf(ctx));
    const commits = await Promise.all(ahead.slice(0, 250).map(async (sha) => restCommitJson(u, await read(sha))));
    ok(ctx, req, res, {
      url: `${u.api}/compare/${basehead}`,
      html_url: `${u.html}/compare/${basehead}`,
      permalink_url: `${u.html}/compare/${base.slice(0, 7)}...${head.slice(0, 7)}`,
      diff_url: `${u.html}/compare/${basehead}.diff`,
      patch_url: `${u.html}/compare/${basehead}.patch`,
      base_commit: restCommitJson(u, await read(base)),
      merge_base_commit: fork ? restCommitJson(u, await read(fork)) : null,
      status: compareStatus(ahead.length, behind.length),
      ahead_by: ahead.length,
      behind_by: behind.length,
      total_commits: ahead.length,
      commits,
      files: files.slice(0, 300).map((f) => fileJson(u, head, f)),
    });
  });

  return router;
}
