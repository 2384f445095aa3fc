import type { GitdexEvent, PullRequestEvent } from '@gitdex/contracts';
import type { SourceRepository } from '@gitdex/ports';
import { indexRef, type IndexOutcome, type IndexRefDeps } from './index-ref';
import { dropRef } from './history/drop';
import { comparePull } from './pull-by-compare';
import { pullRefOf, type PullOptions } from './pull-requests';

export interface PullRequestDeps extends IndexRefDeps {
  onIndexed?: (event: GitdexEvent, ref: string, outcome: IndexOutcome) => void;
}

/** One of handleEvent's outcomes. */
export type PullRequestOutcome = { action: 'synced'; refs: { ref: string; outcome: IndexOutcome | 'deleted' }[] } | { action: 'skipped'; reason: string };

/**
 * Brings refs/pull/N/head to what GitHub says of the pull request now: its head commit indexed
 * while it is open, its closed state stored (the ref stays readable for the retention) once
 * closed, the ref gone when GitHub no longer has the pull request. Like every event, this one
 * is a trigger: a replayed `opened` of a pull request closed since does not reopen it.
 */
export async function handlePullRequest(deps: PullRequestDeps, pulls: PullOptions, event: PullRequestEvent, repository: SourceRepository): Promise<PullRequestOutcome> {
  const { index, source } = deps;
  const installationId = event.installationId;
  const ref = pullRefOf(event.pull.number);
  const state = await index.getRefState(repository.id, ref);
  if (pulls.indexed === 'off') {
    if (state) await dropRef(deps, repository.id, ref);
    return { action: 'skipped', reason: 'pull requests are not indexed (GITDEX_INDEXED_PULLS=off)' };
  }
  const pull = source.pull ? await source.pull(repository, event.pull.number, installationId) : event.pull;
  if (!pull) {
    if (state) await dropRef(deps, repository.id, ref);
    return { action: 'synced', refs: [{ ref, outcome: 'deleted' }] };
  }
  if (pull.state === 'closed') {
    // Readable for the retention from its closing time (GitHub's, else now); retireClosedPulls removes it after.
    const closed = { ...pull, closedAt: pull.closedAt ?? deps.now().toISOString() };
    if (state) await index.putRefState({ ...state, pull: closed });
    return { action: 'skipped', reason: state ? `pull request #${pull.number} is closed: ${ref} stays readable for the retention` : `pull request #${pull.number} is closed and not indexed` };
  }
  // Stored as its changes against the base branch's served generation when the base is indexed.
  const base = await index.getRefState(repository.id, `refs/heads/${pull.baseRef}`);
  const layerOn = base && base.status === 'ready' && !base.underlay && base.commitSha ? base : undefined;
  // What differs from the base, by compare: a handful of requests instead of a tree read per changed folder.
  const compared =
    layerOn?.commitSha && source.batchReads && state?.commitSha !== pull.headSha ? await comparePull(source.batchReads, repository, layerOn.commitSha, pull.headSha, installationId) : null;
  const head = compared?.head ?? (source.commit ? await source.commit(repository, pull.headSha, installationId) : null);
  if (!head) return { action: 'skipped', reason: `GitHub has no commit ${pull.headSha} for pull request #${pull.number} of ${repository.fullName}` };
  const outcome = await indexRef(deps, {
    repository,
    ref,
    head,
    receivedAt: event.receivedAt,
    pull,
    ...(layerOn ? { layerOn } : {}),
    ...(compared?.prepared ? { prepared: compared.prepared } : {}),
    ...(compared ? { comparison: compared.comparison } : {}),
    ...(installationId ? { installationId } : {}),
  });
  deps.onIndexed?.(event, ref, outcome);
  return { action: 'synced', refs: [{ ref, outcome }] };
}
