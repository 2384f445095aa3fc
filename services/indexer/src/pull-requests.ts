import type { PullRequestEvent, PullRequestInfo, RefState } from '@gitdex/contracts';
import type { IndexReads, SourceRepository } from '@gitdex/ports';
import { dropRef, type RefDropDeps } from './history/drop';

/** GITDEX_INDEXED_PULLS and GITDEX_CLOSED_PULL_RETENTION, as the indexer and the reconciler use them. */
export interface PullOptions {
  indexed: 'open' | 'off';
  closedRetentionSeconds: number;
}

export const DEFAULT_PULL_OPTIONS: PullOptions = { indexed: 'open', closedRetentionSeconds: 24 * 3600 };

const PULL_REF = /^refs\/pull\/([1-9]\d*)\/head$/;

/** GitHub's own name of a pull request's head; the reader also accepts `pull/N` for it. */
export const pullRefOf = (number: number): string => `refs/pull/${number}/head`;

export function pullNumberOf(ref: string): number | null {
  const match = PULL_REF.exec(ref);
  return match ? Number(match[1]) : null;
}

/** When a closed pull request's ref goes; null while it is open (or says no closing time). */
export function retiresAt(pull: PullRequestInfo | undefined, options: PullOptions): number | null {
  if (!pull || pull.state !== 'closed' || !pull.closedAt) return null;
  return Date.parse(pull.closedAt) + options.closedRetentionSeconds * 1000;
}

/**
 * Deletes the refs of pull requests closed longer than the retention (and every pull request
 * ref when pull requests are not indexed). Called by the indexer on each event of a repository
 * and by the reconciler's pass, so a closed pull request goes even when nothing else happens.
 */
export async function retireClosedPulls(deps: RefDropDeps & { index: IndexReads }, repositoryId: number, options: PullOptions, now: Date, states?: RefState[]): Promise<string[]> {
  const retired: string[] = [];
  for (const state of states ?? (await deps.index.listRefStates(repositoryId))) {
    if (state.repositoryId !== repositoryId || pullNumberOf(state.ref) === null) continue;
    const at = retiresAt(state.pull, options);
    if (options.indexed === 'off' || (at !== null && at <= now.getTime())) {
      await dropRef(deps, repositoryId, state.ref);
      retired.push(state.ref);
    }
  }
  return retired;
}

/** The event a missed delivery would have been, for the reconciler to queue. */
export function pullEvent(repository: SourceRepository, installationId: number | undefined, pull: PullRequestInfo, action: PullRequestEvent['action'], receivedAt: string): PullRequestEvent {
  return {
    kind: 'pull_request',
    eventId: `reconcile:${repository.id}:pull/${pull.number}:${pull.state === 'open' ? pull.headSha : 'closed'}`,
    repository: { id: repository.id, fullName: repository.fullName, defaultBranch: repository.defaultBranch },
    receivedAt,
    action,
    pull,
    ...(installationId ? { installationId } : {}),
  };
}
