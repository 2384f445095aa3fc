import type { RefState, RepositoriesStateInput, RepositoriesStateOutput, RepositoryDocument, RepositoryState } from '@gitdex/contracts';
import { parseRepositoryName } from '../address/repository-name';
import { backfillSentence, queueBackfill, type BackfillOutcome } from '../backfill';
import type { Principal, ReaderDeps } from '../deps';
import { freshnessOf, shortRef, shortSha } from '../freshness';
import { resultChars } from '../format/text';
import { lookupByName } from '../target';
import type { ToolAnswer } from './answer';
import { cleanIndexError } from '../index-error';
import { queueUnseen, unseenSentence } from '../unseen';
import { isPullRef, openPullRequests } from '../pull-requests';

/** Repositories reported when none are named; name them to see the others. */
const MAX_LISTED = 200;
/** Open pull requests listed for each repository; the rest are counted. */
const MAX_PULL_REQUESTS = 20;
/** Backfills one call queues at most (a listing of many unindexed repositories queues a few at a time). */
const MAX_BACKFILLS = 25;

/**
 * repositories_state: for each repository, whether it is readable, at which commit, how
 * the last index went and whether a push waits. A repository that has nothing readable yet
 * is queued for indexing. Unknown and unreadable repositories read the same.
 */
export async function repositoriesState(deps: ReaderDeps, principal: Principal | null, input: RepositoriesStateInput): Promise<ToolAnswer<RepositoriesStateOutput>> {
  const budget = { backfills: MAX_BACKFILLS };
  let states: RepositoryState[];
  let omitted = 0;
  if (input.repositories !== undefined) {
    const names = [...new Set(input.repositories.map((r) => parseRepositoryName(r, deps.githubWebUrl)))];
    states = [];
    for (const name of names) {
      const repository = await lookupByName(deps, name);
      // A repository the caller may not read goes the same way as one never seen: same lookup, same answer.
      if (!repository || !deps.access(repository, principal)) states.push(await unseen(deps, principal, name));
      else states.push(await stateOf(deps, repository, await deps.index.listRefStates(repository.repositoryId), budget));
    }
  } else {
    const readable = (await deps.index.listRepositories()).filter((r) => deps.access(r, principal)).sort((a, b) => (a.fullNameLower < b.fullNameLower ? -1 : 1));
    const all = await deps.index.listRefStates();
    const byRepository = new Map<number, RefState[]>();
    for (const state of all) byRepository.set(state.repositoryId, [...(byRepository.get(state.repositoryId) ?? []), state]);
    const listed = readable.slice(0, MAX_LISTED);
    omitted = readable.length - listed.length;
    states = [];
    for (const repository of listed) states.push(await stateOf(deps, repository, byRepository.get(repository.repositoryId) ?? [], budget));
  }

  // Many repositories with long errors could overflow a result: keep the first ones.
  let shown = states.length;
  let result = render(states, omitted);
  while (shown > 1 && resultChars(result.text, result.structured) > deps.limits.maxResultChars) {
    shown = Math.ceil(shown / 2);
    result = render(states.slice(0, shown), omitted + states.length - shown);
  }
  return result;
}

function render(states: RepositoryState[], omitted: number): ToolAnswer<RepositoriesStateOutput> {
  const lines = states.map((s) => `${s.repository}: ${s.message}`);
  if (states.length === 0) lines.push('No repositories are indexed that you can read. Index one with `gitdex index owner/name`.');
  if (omitted > 0) lines.push(`[${omitted} more repositories: name them in repositories to see their state]`);
  return { structured: { repositories: states, omitted }, text: lines.join('\n') };
}

function unknown(name: string): RepositoryState {
  return {
    repository: name,
    indexed: false,
    status: 'unknown',
    default_branch: null,
    ref: null,
    commit: null,
    indexed_at: null,
    file_count: 0,
    last_error: null,
    pending: false,
    backfill_queued: false,
    other_refs: [],
    pull_requests: [],
    pull_requests_omitted: 0,
    message: `not indexed: gitdex has never received an event for it. To index it, run \`gitdex index ${name}\` where gitdex runs, or install the gitdex GitHub App on it.`,
  };
}

/** An unseen repository: queued when GitHub has it and this caller may have it queued (queueUnseen), else unknown. */
async function unseen(deps: ReaderDeps, principal: Principal | null, name: string): Promise<RepositoryState> {
  const outcome = await queueUnseen(deps, principal, name);
  if (outcome === 'unknown') return unknown(name);
  const queued = outcome === 'queued' || outcome === 'already_queued';
  return { ...unknown(name), ...(queued ? { status: 'not_indexed' as const } : {}), backfill_queued: outcome === 'queued', message: unseenSentence(outcome, name, deps, principal) };
}

async function stateOf(deps: ReaderDeps, repository: RepositoryDocument, refStates: RefState[], budget: { backfills: number }): Promise<RepositoryState> {
  const defaultRef = `refs/heads/${repository.defaultBranch}`;
  const state = refStates.find((s) => s.ref === defaultRef) ?? null;
  const pulls = openPullRequests(refStates, MAX_PULL_REQUESTS);
  const open = pulls.pull_requests.length + pulls.pull_requests_omitted;
  const pullNote = open > 0 ? `; ${open} open pull request${open === 1 ? '' : 's'} (${pulls.pull_requests.map((p) => p.ref).join(', ')}${pulls.pull_requests_omitted > 0 ? ', …' : ''})` : '';
  const otherRefs = refStates
    .filter((s) => s.ref !== defaultRef && !isPullRef(s.ref))
    .slice(0, 20)
    .map((s) => ({ ref: s.ref, commit: s.commitSha, status: s.status }));
  const common = {
    repository: repository.fullName,
    default_branch: repository.defaultBranch,
    ref: defaultRef,
    file_count: state?.fileCount ?? 0,
    last_error: cleanIndexError(state?.lastError),
    other_refs: otherRefs,
    ...pulls,
  };
  if (state && state.commitSha !== null) {
    const freshness = freshnessOf(state);
    let message = `${state.status === 'failed' ? 'indexed, but the last attempt failed' : state.status === 'indexing' ? 'indexed, re-indexing now' : 'indexed'} at ${shortSha(state.commitSha)} (${state.fileCount} files, ${state.indexedAt ?? 'time unknown'})`;
    if (freshness.pending) message += `; push ${shortSha(freshness.pending_commit)} is being indexed`;
    if (state.status === 'failed' && state.lastError) message += `; last error: ${cleanIndexError(state.lastError)}`;
    return {
      ...common,
      indexed: true,
      status: state.status,
      commit: state.commitSha,
      indexed_at: state.indexedAt,
      pending: freshness.pending,
      ...(freshness.pending_commit ? { pending_commit: freshness.pending_commit } : {}),
      backfill_queued: false,
      message: `${message}${pullNote}.`,
    };
  }
  let outcome: BackfillOutcome | 'skipped' = 'already_queued';
  if (state?.status !== 'indexing') {
    if (budget.backfills > 0) {
      budget.backfills -= 1;
      outcome = await queueBackfill(deps, repository, defaultRef);
    } else outcome = 'skipped';
  }
  const status: RepositoryState['status'] = state?.status === 'indexing' ? 'indexing' : state?.status === 'failed' ? 'failed' : 'not_indexed';
  const why =
    status === 'indexing'
      ? 'its first index is running'
      : status === 'failed'
        ? `the last attempt failed: ${cleanIndexError(state?.lastError) ?? 'no reason recorded'}`
        : `nothing of ${shortRef(defaultRef)} is indexed yet`;
  const pending = state?.pendingCommitSha ?? null;
  return {
    ...common,
    indexed: false,
    status,
    commit: null,
    indexed_at: null,
    pending: pending !== null,
    ...(pending !== null ? { pending_commit: pending } : {}),
    backfill_queued: outcome === 'queued',
    message: `not indexed yet (${why}). ${
      status === 'indexing' ? 'Try again in a minute.' : outcome === 'skipped' ? 'Name it in repositories to queue it for indexing.' : backfillSentence(outcome, repository.fullName)
    }`,
  };
}
