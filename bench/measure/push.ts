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

/** The file a symbol push changes: a TypeScript function named as no earlier push named one. */
export const SYMBOL_PROBE_FILE = 'src/bench_symbol_probe.ts';

/** Commits a new function in SYMBOL_PROBE_FILE; answers its name. */
export async function commitFunction(repo: BenchRepo): Promise<string> {
  const name = `probe_${randomUUID().replaceAll('-', '')}`;
  await commitFiles(repo.dir, { [SYMBOL_PROBE_FILE]: `export function ${name}(): number {\n  return 1;\n}\n` }, `bench: ${name}`);
  return name;
}

export interface SymbolPushSample extends PushSample {
  /** Webhook sent → `find_symbol` finds the new function. */
  findableMs: number;
  /** Webhook sent → `file_outline` of its file lists it. */
  outlinedMs: number;
}

/**
 * Delivers the push webhook, then polls in one loop the file's content, `find_symbol` by the
 * new name and the file's outline over REST, noting when each first shows the function.
 */
export async function pushAndFind(ctx: PushContext, repo: BenchRepo, name: string, options: { intervalMs: number; timeoutMs: number }): Promise<SymbolPushSample> {
  const { delivery } = await ctx.standIn.push(OWNER, repo.name, { ref: 'refs/heads/main' });
  if (delivery.status !== 202) throw new Error(`webhook for ${repo.fullName} answered ${delivery.status ?? delivery.error}: ${delivery.responseBody ?? ''}`);
  const sentAt = Date.parse(delivery.deliveredAt);
  const json = (url: string, found: (body: { symbols?: { name: string; path?: string }[] }) => boolean) => async () => {
    const response = await fetch(url);
    return response.ok && found((await response.json()) as { symbols?: { name: string; path?: string }[] });
  };
  const base = `${ctx.readerUrl}/v1/repositories/${OWNER}/${repo.name}`;
  const checks = {
    readable: async () => {
      const response = await fetch(`${base}/files/${SYMBOL_PROBE_FILE}`);
      return response.ok && (await response.text()).includes(name);
    },
    findable: json(`${ctx.readerUrl}/v1/symbols?name=${name}&repository=${OWNER}/${repo.name}`, (body) => (body.symbols ?? []).some((s) => s.name === name && s.path === SYMBOL_PROBE_FILE)),
    outlined: json(`${base}/outline/${SYMBOL_PROBE_FILE}`, (body) => (body.symbols ?? []).some((s) => s.name === name)),
  };
  const seen: Partial<Record<keyof typeof checks, number>> = {};
  const done = await pollUntil(async () => {
    for (const key of Object.keys(checks) as (keyof typeof checks)[]) {
      if (seen[key] === undefined && (await checks[key]())) seen[key] = Date.now();
    }
    return Object.keys(seen).length === Object.keys(checks).length;
  }, options);
  if (done === null) throw new Error(`${repo.fullName}: ${name} not found by every read within ${options.timeoutMs} ms (${JSON.stringify(seen)})`);
  const at = (key: keyof typeof checks) => (seen[key] as number) - sentAt;
  return { repo: repo.name, sentAt, ackMs: delivery.durationMs, seenAt: seen.readable as number, freshnessMs: at('readable'), findableMs: at('findable'), outlinedMs: at('outlined') };
}
