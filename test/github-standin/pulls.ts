// Pull requests: opened from a branch onto a base branch, their head kept at refs/pull/N/head
// as GitHub keeps it, in the REST shape and the `pull_request` webhook shape.
import { ownerType, urlsOf, type StandInContext } from './context';
import { git } from './git';
import { branchSha } from './git-refs';
import { HttpError } from './http';
import { payloadParties, senderLogin } from './payload-common';
import { loadRepoFacts, repoJson, userJson } from './repo-json';
import type { RepoHandle } from './repo-store';
import type { StoredPull } from './state-file';
import type { DeliveryRecord } from './webhooks';

export type PullAction = 'opened' | 'synchronize' | 'closed';

export interface PullResult {
  pull: StoredPull;
  /** Absent when no webhook URL is configured. */
  delivery?: DeliveryRecord;
}

export const pullRef = (number: number): string => `refs/pull/${number}/head`;

async function headSha(repo: RepoHandle, pull: StoredPull): Promise<string | null> {
  return (await git(repo.dir, ['rev-parse', '--verify', '--quiet', `${pullRef(pull.number)}^{commit}`]).catch(() => null))?.toString('utf8').trim() ?? null;
}

async function requireBranch(repo: RepoHandle, branch: string, role: 'head' | 'base'): Promise<string> {
  const sha = /^[A-Za-z0-9._/-]+$/.test(branch) ? await branchSha(repo.dir, branch) : null;
  if (!sha) throw new HttpError(422, `Validation Failed: ${role} branch "${branch}" does not exist in ${repo.owner}/${repo.name}`);
  return sha;
}

export function findPull(ctx: StandInContext, repo: RepoHandle, number: number): StoredPull {
  const pull = ctx.store.pulls(repo.id).find((p) => p.number === number);
  if (!pull) throw new HttpError(404, `No pull request #${number} in ${repo.owner}/${repo.name}`);
  return pull;
}

/** The REST (and webhook) shape of a pull request, with the fields gitdex and common clients read. */
export async function pullJson(ctx: StandInContext, repo: RepoHandle, pull: StoredPull): Promise<Record<string, unknown>> {
  const urls = urlsOf(ctx);
  const facts = await loadRepoFacts(repo);
  const repository = repoJson(repo, facts, urls, ownerType(ctx, repo.owner), 'rest');
  const api = `${urls.apiUrl}/repos/${repo.owner}/${repo.name}`;
  const head = await headSha(repo, pull);
  const base = await branchSha(repo.dir, pull.base);
  const author = userJson(pull.author, 'User', urls);
  return {
    url: `${api}/pulls/${pull.number}`,
    id: repo.id * 1000 + pull.number,
    html_url: `${urls.htmlUrl}/${repo.owner}/${repo.name}/pull/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: author,
    body: null,
    draft: pull.draft,
    merged: pull.merged,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.merged ? pull.closedAt : null,
    head: { label: `${repo.owner}:${pull.head}`, ref: pull.head, sha: head, user: userJson(repo.owner, ownerType(ctx, repo.owner), urls), repo: repository },
    base: { label: `${repo.owner}:${pull.base}`, ref: pull.base, sha: base, user: userJson(repo.owner, ownerType(ctx, repo.owner), urls), repo: repository },
  };
}

async function deliver(ctx: StandInContext, repo: RepoHandle, pull: StoredPull, action: PullAction): Promise<PullResult> {
  if (!ctx.config.webhookUrl) return { pull };
  const payload = {
    action,
    number: pull.number,
    pull_request: await pullJson(ctx, repo, pull),
    repository: repoJson(repo, await loadRepoFacts(repo), urlsOf(ctx), ownerType(ctx, repo.owner), 'event'),
    ...payloadParties(ctx, repo.owner),
  };
  return { pull, delivery: await ctx.webhooks.deliver('pull_request', payload) };
}

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function openPull(ctx: StandInContext, repo: RepoHandle, input: { head: string; base: string; title: string; draft?: boolean | undefined }): Promise<PullResult> {
  const sha = await requireBranch(repo, input.head, 'head');
  await requireBranch(repo, input.base, 'base');
  if (input.head === input.base) throw new HttpError(422, `Validation Failed: head and base are both "${input.head}"`);
  const number = ctx.store.pulls(repo.id).reduce((max, p) => Math.max(max, p.number), 0) + 1;
  await git(repo.dir, ['update-ref', pullRef(number), sha]);
  const at = now();
  const pull: StoredPull = {
    number,
    title: input.title,
    head: input.head,
    base: input.base,
    state: 'open',
    merged: false,
    draft: input.draft ?? false,
    author: senderLogin(ctx, repo.owner),
    createdAt: at,
    updatedAt: at,
    closedAt: null,
  };
  ctx.store.savePull(repo.id, pull);
  return deliver(ctx, repo, pull, 'opened');
}

/** Moves refs/pull/N/head to the head branch's commit (what a push to the head branch does on GitHub). */
export async function synchronizePull(ctx: StandInContext, repo: RepoHandle, number: number): Promise<PullResult> {
  const pull = findPull(ctx, repo, number);
  if (pull.state !== 'open') throw new HttpError(422, `Pull request #${number} is closed: reopen it before synchronizing`);
  await git(repo.dir, ['update-ref', pullRef(number), await requireBranch(repo, pull.head, 'head')]);
  const updated = { ...pull, updatedAt: now() };
  ctx.store.savePull(repo.id, updated);
  return deliver(ctx, repo, updated, 'synchronize');
}

export async function closePull(ctx: StandInContext, repo: RepoHandle, number: number, merged: boolean): Promise<PullResult> {
  const pull = findPull(ctx, repo, number);
  if (pull.state !== 'open') throw new HttpError(422, `Pull request #${number} is already closed`);
  const at = now();
  const closed: StoredPull = { ...pull, state: 'closed', merged, updatedAt: at, closedAt: at };
  ctx.store.savePull(repo.id, closed);
  return deliver(ctx, repo, closed, 'closed');
}
