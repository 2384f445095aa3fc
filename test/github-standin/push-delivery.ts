// "Pushes": compares a ref with the SHA last delivered for it and sends the push webhook.
import type { PushEvent } from '@octokit/webhooks-types';
import { ownerType, urlsOf, type StandInContext } from './context';
import { isSafeRefName, ZERO_SHA } from './git';
import { headBranch, listRefs, readRef } from './git-refs';
import { HttpError } from './http';
import { payloadParties } from './payload-common';
import { buildPushPayload } from './push-payload';
import type { RepoHandle } from './repo-store';
import type { DeliveryRecord } from './webhooks';

export interface PushOptions {
  /** Branch ("main"), or full ref ("refs/heads/main", "refs/tags/v1"); default: the default branch. */
  ref?: string | undefined;
  /** Overrides the remembered previous SHA. */
  before?: string | undefined;
}

export interface PushResult {
  payload: PushEvent;
  delivery: DeliveryRecord;
}

export async function fullRef(repo: RepoHandle, ref: string | undefined): Promise<string> {
  const name = ref ?? (await headBranch(repo.dir));
  const full = name.startsWith('refs/') ? name : `refs/heads/${name}`;
  if (!isSafeRefName(full)) throw new HttpError(422, `Invalid ref: ${name}`);
  return full;
}

/** Delivers the push of `ref` since the last delivered SHA (or `before`) and remembers the new SHA. */
export async function deliverPush(ctx: StandInContext, repo: RepoHandle, options: PushOptions = {}): Promise<PushResult> {
  if (!ctx.config.webhookUrl) throw new HttpError(422, 'No webhook URL configured (use --webhook-url or POST /_admin/config).');
  const ref = await fullRef(repo, options.ref);
  const after = (await readRef(repo.dir, ref))?.sha ?? ZERO_SHA;
  const before = options.before ?? ctx.store.lastDelivered(repo.id, ref) ?? ZERO_SHA;
  if (before === ZERO_SHA && after === ZERO_SHA) throw new HttpError(404, `Reference not found: ${ref}`);
  if (before === after) throw new HttpError(422, `Nothing to deliver: ${ref} is still at ${after}`);
  const payload = await buildPushPayload({
    repo,
    ref,
    before,
    after,
    urls: urlsOf(ctx),
    ownerType: ownerType(ctx, repo.owner),
    parties: payloadParties(ctx, repo.owner),
    maxCommits: ctx.config.maxPayloadCommits,
  });
  // The push has happened whether or not the receiver is up (a failed delivery can be redelivered).
  ctx.store.setLastDelivered(repo.id, ref, after);
  return { payload, delivery: await ctx.webhooks.deliver('push', payload) };
}

/** Delivers a push for every branch or tag that changed (created, moved or deleted) since its last delivery. */
export async function deliverAllPushes(ctx: StandInContext, repo: RepoHandle): Promise<PushResult[]> {
  const current = new Map((await listRefs(repo.dir, 'refs/')).filter((r) => /^refs\/(heads|tags)\//.test(r.ref)).map((r) => [r.ref, r.sha]));
  const refs = new Set([...current.keys(), ...ctx.store.deliveredRefs(repo.id)]);
  const results: PushResult[] = [];
  for (const ref of [...refs].sort()) {
    const last = ctx.store.lastDelivered(repo.id, ref) ?? ZERO_SHA;
    if ((current.get(ref) ?? ZERO_SHA) !== last) results.push(await deliverPush(ctx, repo, { ref }));
  }
  return results;
}
