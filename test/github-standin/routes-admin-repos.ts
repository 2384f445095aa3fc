// /_admin/repos: list, rename/transfer, delete, visibility/archive, and push webhooks.
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { StandInContext } from './context';
import { HttpError } from './http';
import { deliverAllPushes, deliverPush, type PushResult } from './push-delivery';
import { isValidOwner, isValidRepoName, type RepoHandle, type RepoPatch } from './repo-store';
import { repositoryEventPayload, type RepositoryAction, type RepositoryChanges } from './repository-events';
import { sendDelivery } from './routes-admin';
import type { DeliveryRecord } from './webhooks';

export interface RepoAdminResult {
  repository: { id: number; owner: string; name: string; full_name: string; private: boolean; archived: boolean };
  deliveries: DeliveryRecord[];
}

export function summary(repo: RepoHandle): RepoAdminResult['repository'] {
  return { id: repo.id, owner: repo.owner, name: repo.name, full_name: `${repo.owner}/${repo.name}`, private: repo.private, archived: repo.archived };
}

async function findRepo(ctx: StandInContext, owner: string, name: string): Promise<RepoHandle> {
  const repo = await ctx.store.find(owner, name);
  if (!repo) throw new HttpError(404, `No repository ${owner}/${name} under ${ctx.store.root}`);
  return repo;
}

/** `deliver` defaults to true when a webhook URL is configured. */
function wantsDelivery(ctx: StandInContext, deliver: boolean | undefined): boolean {
  return (deliver ?? true) && ctx.config.webhookUrl !== undefined;
}

async function sendRepositoryEvent(ctx: StandInContext, repo: RepoHandle, action: RepositoryAction, changes?: RepositoryChanges): Promise<DeliveryRecord> {
  return ctx.webhooks.deliver('repository', await repositoryEventPayload(ctx, repo, action, changes));
}

export async function renameRepo(
  ctx: StandInContext,
  owner: string,
  name: string,
  to: { newOwner?: string | undefined; newName?: string | undefined; deliver?: boolean | undefined },
): Promise<RepoAdminResult> {
  const repo = await findRepo(ctx, owner, name);
  const newOwner = to.newOwner ?? repo.owner;
  const newName = to.newName ?? repo.name;
  if (!isValidOwner(newOwner) || !isValidRepoName(newName)) throw new HttpError(422, `Invalid name ${newOwner}/${newName}`);
  if (!ctx.store.isFree(newOwner, newName)) throw new HttpError(422, `${newOwner}/${newName} already exists`);
  const moved = await ctx.store.move(repo, newOwner, newName);
  const deliveries: DeliveryRecord[] = [];
  if (wantsDelivery(ctx, to.deliver)) {
    const transferred = newOwner !== repo.owner;
    const action = transferred ? 'transferred' : 'renamed';
    deliveries.push(await sendRepositoryEvent(ctx, moved, action, transferred ? { fromOwner: repo.owner } : { fromName: repo.name }));
  }
  return { repository: summary(moved), deliveries };
}

export async function deleteRepo(ctx: StandInContext, owner: string, name: string, deliver?: boolean): Promise<RepoAdminResult> {
  const repo = await findRepo(ctx, owner, name);
  const payload = wantsDelivery(ctx, deliver) ? await repositoryEventPayload(ctx, repo, 'deleted') : null;
  await ctx.store.remove(repo);
  return { repository: summary(repo), deliveries: payload ? [await ctx.webhooks.deliver('repository', payload)] : [] };
}

/** Changes settings; privatized/publicized/archived/unarchived webhooks follow the changes. */
export async function updateRepo(ctx: StandInContext, owner: string, name: string, patch: RepoPatch & { deliver?: boolean | undefined }): Promise<RepoAdminResult> {
  const repo = await findRepo(ctx, owner, name);
  const { deliver, ...settings } = patch;
  const updated = ctx.store.update(repo, settings);
  const actions: RepositoryAction[] = [];
  if (settings.private !== undefined && settings.private !== repo.private) actions.push(settings.private ? 'privatized' : 'publicized');
  if (settings.archived !== undefined && settings.archived !== repo.archived) actions.push(settings.archived ? 'archived' : 'unarchived');
  const deliveries: DeliveryRecord[] = [];
  if (wantsDelivery(ctx, deliver)) for (const action of actions) deliveries.push(await sendRepositoryEvent(ctx, updated, action));
  return { repository: summary(updated), deliveries };
}

const deliverFlag = z.boolean().optional();
const renameSchema = z.object({ new_name: z.string().optional(), new_owner: z.string().optional(), deliver: deliverFlag });
const patchSchema = z.object({
  private: z.boolean().optional(),
  archived: z.boolean().optional(),
  description: z.string().nullable().optional(),
  topics: z.array(z.string()).optional(),
  deliver: deliverFlag,
});
const pushSchema = z.object({
  ref: z.string().optional(),
  before: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  all: z.boolean().optional(),
});

function pushSummary(result: PushResult): Record<string, unknown> {
  const p = result.payload;
  return { ref: p.ref, before: p.before, after: p.after, created: p.created, deleted: p.deleted, forced: p.forced, commits: p.commits.length };
}

export function adminReposRouter(ctx: StandInContext): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  const names = (req: Request): [string, string] => [String(req.params.owner), String(req.params.repo)];

  router.get('/repos', async (_req, res) => void res.json((await ctx.store.list()).map((r) => ({ ...summary(r), dir: r.dir }))));
  router.get('/repos/:owner/:repo', async (req, res) => {
    const repo = await findRepo(ctx, ...names(req));
    res.json({ ...summary(repo), dir: repo.dir });
  });

  router.post('/repos/:owner/:repo/rename', async (req, res) => {
    const body = renameSchema.parse(req.body ?? {});
    res.json(await renameRepo(ctx, ...names(req), { newName: body.new_name, newOwner: body.new_owner, deliver: body.deliver }));
  });
  router.delete('/repos/:owner/:repo', async (req, res) => {
    const deliver = req.query.deliver === undefined ? z.object({ deliver: deliverFlag }).parse(req.body ?? {}).deliver : req.query.deliver !== 'false';
    res.json(await deleteRepo(ctx, ...names(req), deliver));
  });
  router.post('/repos/:owner/:repo/visibility', async (req, res) => {
    const body = z.object({ private: z.boolean(), deliver: deliverFlag }).parse(req.body ?? {});
    res.json(await updateRepo(ctx, ...names(req), body));
  });
  router.patch('/repos/:owner/:repo', async (req, res) => {
    res.json(await updateRepo(ctx, ...names(req), patchSchema.parse(req.body ?? {})));
  });

  router.post('/repos/:owner/:repo/push', async (req, res) => {
    const body = pushSchema.parse(req.body ?? {});
    const repo = await findRepo(ctx, ...names(req));
    if (body.all) {
      const results = await deliverAllPushes(ctx, repo);
      const failed = results.some((r) => r.delivery.status === null);
      res.status(failed ? 502 : 200).json({
        deliveries: results.map((r) => ({ delivery_id: r.delivery.id, status: r.delivery.status, body: r.delivery.responseBody, error: r.delivery.error, ...pushSummary(r) })),
      });
      return;
    }
    const result = await deliverPush(ctx, repo, { ref: body.ref, before: body.before });
    sendDelivery(res, result.delivery, pushSummary(result));
  });

  return router;
}
