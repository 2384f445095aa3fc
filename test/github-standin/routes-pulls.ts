// Pull request endpoints: GET /repos/{o}/{r}/pulls[/{n}] as GitHub answers them, and the admin
// routes that open, synchronize and close pull requests with their `pull_request` webhooks.
import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { StandInContext } from './context';
import { HttpError } from './http';
import { paginate } from './paginate';
import { closePull, findPull, openPull, pullJson, synchronizePull, type PullResult } from './pulls';
import type { RepoHandle } from './repo-store';
import { apiChain, loadRepo, ok } from './route-kit';
import { ROUTES } from './route-patterns';
import { sendDelivery } from './routes-admin';

const DOCS = 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request';

function pullNumber(req: Request): number {
  const number = Number(req.params.number);
  if (!Number.isInteger(number) || number < 1) throw new HttpError(404, 'Not Found', DOCS);
  return number;
}

export function pullsRouter(ctx: StandInContext): Router {
  const router = Router();
  const chain = apiChain(ctx);

  router.get(ROUTES.pulls, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const state = typeof req.query.state === 'string' ? req.query.state : 'open';
    if (!['open', 'closed', 'all'].includes(state)) throw new HttpError(422, `Validation Failed: state must be open, closed or all, not "${state}"`, DOCS);
    // GitHub's default order: newest first.
    const pulls = ctx.store
      .pulls(repo.id)
      .filter((p) => state === 'all' || p.state === state)
      .sort((a, b) => b.number - a.number);
    ok(ctx, req, res, await Promise.all(paginate(req, res, pulls).map((p) => pullJson(ctx, repo, p))));
  });

  router.get(ROUTES.pull, ...chain, async (req, res) => {
    const repo = await loadRepo(ctx, req, res);
    const number = pullNumber(req);
    const pull = ctx.store.pulls(repo.id).find((p) => p.number === number);
    if (!pull) throw new HttpError(404, 'Not Found', DOCS);
    ok(ctx, req, res, await pullJson(ctx, repo, pull));
  });

  return router;
}

const openSchema = z.object({ head: z.string().min(1), base: z.string().min(1), title: z.string().min(1).max(1024), draft: z.boolean().optional() });
const closeSchema = z.object({ merged: z.boolean().optional() });

function answer(res: Response, result: PullResult): void {
  const extra = { number: result.pull.number, state: result.pull.state, merged: result.pull.merged };
  if (result.delivery) sendDelivery(res, result.delivery, extra);
  else res.json(extra);
}

export function adminPullsRouter(ctx: StandInContext): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  const repoOf = async (req: Request): Promise<RepoHandle> => {
    const repo = await ctx.store.find(String(req.params.owner), String(req.params.repo));
    if (!repo) throw new HttpError(404, `No repository ${String(req.params.owner)}/${String(req.params.repo)} under ${ctx.store.root}`);
    return repo;
  };

  router.post('/repos/:owner/:repo/pulls', async (req, res) => {
    answer(res, await openPull(ctx, await repoOf(req), openSchema.parse(req.body ?? {})));
  });
  router.post('/repos/:owner/:repo/pulls/:number/synchronize', async (req, res) => {
    const repo = await repoOf(req);
    answer(res, await synchronizePull(ctx, repo, findPull(ctx, repo, pullNumber(req)).number));
  });
  router.post('/repos/:owner/:repo/pulls/:number/close', async (req, res) => {
    const repo = await repoOf(req);
    answer(res, await closePull(ctx, repo, findPull(ctx, repo, pullNumber(req)).number, closeSchema.parse(req.body ?? {}).merged ?? false));
  });
  return router;
}
