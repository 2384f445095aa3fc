import { randomUUID } from 'node:crypto';
import { commitFiles } from '../../test/github-standin/fixture-repos';
import type { GitHubStandIn } from '../../test/github-standin/server';
import { OWNER, type BenchRepo } from '../setup/repos';
import { pollUntil } from './timer';

/** The file a one-file push changes; its content carries a token no earlier push had. */
export const PROBE_FILE = 'BENCH_FRESHNESS.md';

export interface PushSample {
  repo: string;
  /** When the stand-in started sending the webhook (ms since the epoch). */
  sentAt: number;
  /** Webhook sent → gitdex answered (202 = the event is in the log): the pipeline's floor. */
  ackMs: number;
  /** When a read through the reader first showed the new content. */
  seenAt: number;
  /** Webhook sent → new content readable. */
  freshnessMs: number;
}

export interface PushContext {
  standIn: GitHubStandIn;
  readerUrl: string;
}

/** Commits a one-file change (a new token in PROBE_FILE); answers the token. */
export async function commitToken(repo: BenchRepo): Promise<string> {
  const token = `token-${randomUUID()}`;
  await commitFiles(repo.dir, { [PROBE_FILE]: `# freshness probe\n\n${token}\n` }, `bench: ${token}`);
  return token;
}

const fileUrl = (readerUrl: string, repo: BenchRepo, path: string) => `${readerUrl}/v1/repositories/${OWNER}/${repo.name}/files/${path.split('/').map(encodeURIComponent).join('/')}`;

/**
 * Delivers the push webhook of the repository's main branch, then polls read_file over REST
 * until the reader serves `expect` (the token in PROBE_FILE), or any answer for the probe
 * path when `expect` is null (a first index). `before` overrides the SHA the stand-in
 * remembers (40 zeros: a created branch, so a repository can be pushed to each backend).
 */
export async function pushAndWait(ctx: PushContext, repo: BenchRepo, expect: string | null, options: { intervalMs: number; timeoutMs: number; before?: string }): Promise<PushSample> {
  const { delivery } = await ctx.standIn.push(OWNER, repo.name, { ref: 'refs/heads/main', ...(options.before ? { before: options.before } : {}) });
  if (delivery.status !== 202) throw new Error(`webhook for ${repo.fullName} answered ${delivery.status ?? delivery.error}: ${delivery.responseBody ?? ''}`);
  const sentAt = Date.parse(delivery.deliveredAt);
  const url = fileUrl(ctx.readerUrl, repo, expect === null ? repo.probePath : PROBE_FILE);
  const seenAt = await pollUntil(async () => {
    const response = await fetch(url);
    const text = await response.text();
    return response.ok && (expect === null || text.includes(expect));
  }, options);
  if (seenAt === null) throw new Error(`${repo.fullName}: ${expect ?? 'first index'} not readable within ${options.timeoutMs} ms`);
  return { repo: repo.name, sentAt, ackMs: delivery.durationMs, seenAt, freshnessMs: seenAt - sentAt };
}
