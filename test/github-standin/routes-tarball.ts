// GET /repos/{owner}/{repo}/tarball/{ref} answers 302 to a codeload-like url on the same server,
// which streams `git archive` (top folder "<owner>-<repo>-<7 char sha>/", pax comment = commit id).
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { type StandInContext } from './context';
import { spawnGit } from './git';
import { objectType, resolveCommit } from './git-objects';
import { headBranch } from './git-refs';
import { HttpError, notFound, requestBase, wildcard } from './http';
import { apiChain, emptyOr, loadRepo } from './route-kit';
import { ROUTES } from './route-patterns';

const FORMATS: Record<string, { git: string; contentType: string; ext: string }> = {
  'legacy.tar.gz': { git: 'tar.gz', contentType: 'application/x-gzip', ext: 'tar.gz' },
  'legacy.zip': { git: 'zip', contentType: 'application/zip', ext: 'zip' },
};

function redirectTo(ctx: StandInContext, format: 'legacy.tar.gz' | 'legacy.zip') {
  return async (req: Request, res: Response): Promise<void> => {
    const repo = await loadRepo(ctx, req, res);
    const ref = wildcard(req.params.ref) || (await headBranch(repo.dir));
    const sha = await resolveCommit(repo.dir, ref);
    if (!sha) throw await emptyOr(repo, notFound('https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar'));
    res.redirect(302, `${requestBase(req)}/_codeload/${repo.owner}/${repo.name}/${format}/${sha}`);
  };
}

/** Streams the archive; the git process is killed when the client goes away. */
async function codeload(ctx: StandInContext, req: Request, res: Response): Promise<void> {
  const format = FORMATS[String(req.params.format)];
  const repo = await ctx.store.find(String(req.params.owner), String(req.params.repo));
  const sha = String(req.params.sha).toLowerCase();
  if (!format || !repo || !/^[0-9a-f]{40}$/.test(sha) || (await objectType(repo.dir, sha)) !== 'commit') throw notFound();
  const top = `${repo.owner}-${repo.name}-${sha.slice(0, 7)}`;
  const sendHeaders = () => {
    res.status(200);
    res.setHeader('content-type', format.contentType);
    res.setHeader('content-disposition', `attachment; filename=${top}.${format.ext}`);
  };
  const cached = ctx.archiveCacheDir ? join(ctx.archiveCacheDir, `${repo.owner}-${repo.name}-${sha}.${format.ext}`) : null;
  if (cached && existsSync(cached)) {
    sendHeaders();
    await pipeline(createReadStream(cached), res).catch(() => res.destroy());
    return;
  }
  const child = spawnGit(repo.dir, ['archive', `--format=${format.git}`, `--prefix=${top}/`, sha]);
  child.stdin.end();
  // Written beside the answer and renamed into the cache only once git archive succeeded.
  const partial = cached ? `${cached}.${process.pid}.${Date.now()}.partial` : null;
  const copy = partial ? createWriteStream(partial) : null;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  res.on('close', () => {
    if (child.exitCode === null) child.kill();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('readable', () => {
      sendHeaders();
      child.stdout.pipe(res);
      if (copy) child.stdout.pipe(copy);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      copy?.end(() => {
        if (code === 0 && partial && cached) renameSync(partial, cached);
        else if (partial) rmSync(partial, { force: true });
      });
      if (code === 0) return resolve();
      if (!res.headersSent) return reject(new HttpError(500, `git archive failed: ${stderr.trim()}`));
      res.destroy();
      resolve();
    });
  });
}

export function tarballRouter(ctx: StandInContext): Router {
  const router = Router();
  const chain = apiChain(ctx);
  router.get(ROUTES.tarball, ...chain, redirectTo(ctx, 'legacy.tar.gz'));
  router.get(ROUTES.zipball, ...chain, redirectTo(ctx, 'legacy.zip'));
  // codeload is not the API: no token, no rate limit; faults still apply.
  router.get(ROUTES.codeload, ...apiChain(ctx, { auth: false, rateLimit: false }), (req, res) => codeload(ctx, req, res));
  return router;
}
