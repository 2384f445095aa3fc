import type { PullRequestSummary, RefState } from '@gitdex/contracts';
import { shortSha } from './freshness';

/**
 * The open pull requests among a repository's ref states, most recently updated first, at
 * most `limit` of them and how many more. A closed one stays readable at pull/N until the
 * index retires it, but is no longer listed.
 */
export function openPullRequests(states: RefState[], limit: number): { pull_requests: PullRequestSummary[]; pull_requests_omitted: number } {
  const open = states.filter((s): s is RefState & { pull: NonNullable<RefState['pull']> } => s.pull?.state === 'open');
  open.sort((a, b) => (a.pull.updatedAt < b.pull.updatedAt ? 1 : a.pull.updatedAt > b.pull.updatedAt ? -1 : b.pull.number - a.pull.number));
  const listed = open.slice(0, limit).map(({ pull, commitSha }): PullRequestSummary => ({
    number: pull.number,
    ref: `pull/${pull.number}`,
    title: pull.title,
    author: pull.author,
    draft: pull.draft,
    base_ref: pull.baseRef,
    head_sha: pull.headSha,
    updated_at: pull.updatedAt,
    indexed: commitSha !== null,
  }));
  return { pull_requests: listed, pull_requests_omitted: open.length - listed.length };
}

/** "pull/12 Fix the parser (octocat, draft) into main at 1a2b3c4d5e6f, updated …" — one line each. */
export function pullRequestLines(found: { pull_requests: PullRequestSummary[]; pull_requests_omitted: number }): string[] {
  const lines = found.pull_requests.map(
    (p) =>
      `${p.ref} ${p.title} (${[p.author ?? 'unknown author', ...(p.draft ? ['draft'] : []), ...(p.indexed ? [] : ['not readable yet'])].join(', ')}) into ${p.base_ref} at ${shortSha(p.head_sha)}, updated ${p.updated_at}`,
  );
  if (found.pull_requests_omitted > 0) lines.push(`[${found.pull_requests_omitted} more open pull requests]`);
  return lines;
}

/** Whether a ref state is a pull request's head (refs/pull/N/head), listed apart from branches and tags. */
export const isPullRef = (ref: string): boolean => /^refs\/pull\/\d+\/head$/.test(ref);
