import type { GitdexEvent, PushEvent, RepositoryDocument } from '@gitdex/contracts';
import type { SourceRepository } from '@gitdex/ports';
import { backfillCapProblem, type BackfillCap } from './backfill-cap';
import { indexRef, type IndexOutcome, type IndexRefDeps } from './index-ref';
import { handlePullRequest } from './handle-pull-request';
import { DEFAULT_PULL_OPTIONS, pullNumberOf, retireClosedPulls, type PullOptions } from './pull-requests';
import { comparePush } from './push-by-compare';
import { pushedCommitsOf } from './served-commits';
import { dropRef, dropRepository } from './history/drop';
import { branchOf, tagOf, type RefSelection } from './ref-selection';

export interface HandleEventDeps extends IndexRefDeps {
  refs: RefSelection;
  onIndexed?: (event: GitdexEvent, ref: string, outcome: IndexOutcome) => void;
  /** Size cap of backfills queued by callers without a token (reason anonymous_lookup); none: not capped. */
  anonymousBackfillCap?: BackfillCap;
  /** Pull request heads indexed (refs/pull/N/head) and how long closed ones stay; default open, 24 h. */
  pulls?: PullOptions;
}

export type EventOutcome = { action: 'synced'; refs: { ref: string; outcome: IndexOutcome | 'deleted' }[] } | { action: 'purged'; scope: 'repository' | 'ref' } | { action: 'skipped'; reason: string };

/**
 * The event is a trigger, not the truth: whatever it says, the indexer asks GitHub
 * for the repository's current state and converges the index to it. So replays,
 * duplicates and reordering all end in the same index.
 */
export async function handleEvent(deps: HandleEventDeps, event: GitdexEvent): Promise<EventOutcome> {
  const { index, source } = deps;
  const installationId = event.installationId;
  const repositoryId = event.repository.id;

  if (event.kind === 'purge' && event.reason === 'cli') {
    // An operator asked: unconditional.
    if (event.ref) await dropRef(deps, repositoryId, event.ref);
    else await dropRepository(deps, repositoryId);
    return { action: 'purged', scope: event.ref ? 'ref' : 'repository' };
  }
  if (event.kind === 'purge' && event.reason === 'installation_removed') {
    // A delivery may be replayed or forged (a leaked secret): only GitHub, asked with the
    // credentials gitdex reads with, confirms the loss of access (for a removed installation
    // its token can no longer be minted: NOT_FOUND). Still readable means nothing is deleted.
    if (await source.repository(repositoryId, installationId)) return { action: 'skipped', reason: 'GitHub still grants read access: installation_removed purge not applied' };
    await dropRepository(deps, repositoryId);
    return { action: 'purged', scope: 'repository' };
  }

  if (event.kind === 'push') {
    const compared = await pushByCompare(deps, event);
    if (compared) return compared;
  }
  const repository = await source.repository(repositoryId, installationId);
  if (!repository) {
    await dropRepository(deps, repositoryId);
    return { action: 'purged', scope: 'repository' };
  }
  const known = await index.getRepository(repositoryId);
  if (event.kind === 'backfill' && event.reason === 'anonymous_lookup' && !known && deps.anonymousBackfillCap) {
    // Checked before anything is written: a repository too large leaves no trace in the index.
    const problem = await backfillCapProblem(source, repository, deps.anonymousBackfillCap, installationId);
    if (problem !== null) return { action: 'skipped', reason: problem };
  }
  const current = repositoryDocument(repository, known, installationId, deps.now());
  if (!known || metadataChanged(known, current)) await index.putRepository(current);
  const pulls = deps.pulls ?? DEFAULT_PULL_OPTIONS;
  // Closed pull requests past their retention go on the repository's next event, whatever it is.
  await retireClosedPulls(deps, repositoryId, pulls, deps.now());
  if (event.kind === 'pull_request') return handlePullRequest(deps, pulls, event, repository);

  const onlyRef = event.kind === 'push' || event.kind === 'purge' || (event.kind === 'backfill' && event.ref) ? event.ref : undefined;
  if (onlyRef !== undefined && pullNumberOf(onlyRef) !== null) return { action: 'skipped', reason: `${onlyRef} follows its pull request's events, not pushes or backfills` };
  if (onlyRef !== undefined && !deps.refs.includes(onlyRef, repository.defaultBranch)) {
    // A ref no longer selected (e.g. the default branch moved) is dropped when it is still indexed.
    if (await index.getRefState(repositoryId, onlyRef)) await dropRef(deps, repositoryId, onlyRef);
    return { action: 'skipped', reason: `${onlyRef} is not an indexed ref` };
  }
  const refs = onlyRef ? [onlyRef] : await selectedRefs(deps, repository, installationId);

  if (!onlyRef) {
    for (const state of await index.listRefStates(repositoryId)) {
      // Pull request refs follow their pull requests (handlePullRequest, retireClosedPulls), not the ref selection.
      if (!refs.includes(state.ref) && pullNumberOf(state.ref) === null) await dropRef(deps, repositoryId, state.ref);
    }
  }

  const results: { ref: string; outcome: IndexOutcome | 'deleted' }[] = [];
  for (const ref of refs) {
    const branch = branchOf(ref);
    const tag = tagOf(ref);
    const head = branch ? await source.head(repository, branch, installationId) : tag && source.tagHead ? await source.tagHead(repository, tag, installationId) : null;
    if (!head) {
      await dropRef(deps, repositoryId, ref);
      results.push({ ref, outcome: 'deleted' });
      continue;
    }
    const pushed = event.kind === 'push' && event.ref === ref ? { pushed: pushedCommitsOf(event) } : {};
    const outcome = await indexRef(deps, { repository, ref, head, receivedAt: event.receivedAt, ...(installationId ? { installationId } : {}), ...pushed });
    deps.onIndexed?.(event, ref, outcome);
    results.push({ ref, outcome });
  }
  if (known?.backfillRequestedAt) await index.putRepository({ ...repositoryDocument(repository, known, installationId, deps.now()), backfillRequestedAt: null });
  return { action: 'synced', refs: results };
}

/**
 * A push to a ref the index serves, in two GitHub requests (compare, then one GraphQL query that
 * also re-reads the repository's metadata); null when the full path below must decide.
 */
async function pushByCompare(deps: HandleEventDeps, event: PushEvent): Promise<EventOutcome | null> {
  const repositoryId = event.repository.id;
  const known = await deps.index.getRepository(repositoryId);
  if (!known || !deps.refs.includes(event.ref, known.defaultBranch)) return null;
  const state = await deps.index.getRefState(repositoryId, event.ref);
  if (!state?.commitSha || state.status !== 'ready' || state.generation === 0) return null;
  const asKnown: SourceRepository = { id: known.repositoryId, fullName: known.fullName, defaultBranch: known.defaultBranch, private: known.private, archived: known.archived, htmlUrl: known.htmlUrl };
  const compared = await comparePush(deps.source, asKnown, event, { commitSha: state.commitSha, treeSha: state.treeSha, committedAt: state.committedAt });
  if (!compared) return null;
  const installationId = event.installationId;
  const current = repositoryDocument(compared.repository, known, installationId, deps.now());
  if (metadataChanged(known, current) || known.backfillRequestedAt) await deps.index.putRepository({ ...current, backfillRequestedAt: null });
  const outcome = await indexRef(deps, {
    repository: compared.repository,
    ref: event.ref,
    head: compared.head,
    receivedAt: event.receivedAt,
    pushed: pushedCommitsOf(event),
    ...(installationId ? { installationId } : {}),
    ...(compared.prepared ? { prepared: compared.prepared } : {}),
    wide: compared.wide,
    comparison: compared.comparison,
  });
  deps.onIndexed?.(event, event.ref, outcome);
  return { action: 'synced', refs: [{ ref: event.ref, outcome }] };
}

async function selectedRefs(deps: HandleEventDeps, repository: SourceRepository, installationId: number | undefined): Promise<string[]> {
  const branches = deps.refs.needsBranchList ? await deps.source.branches(repository, installationId) : [];
  const tags = deps.refs.needsTagList && deps.source.tags ? await deps.source.tags(repository, installationId) : [];
  return deps.refs.select(repository.defaultBranch, branches, tags);
}

function metadataChanged(a: RepositoryDocument, b: RepositoryDocument): boolean {
  return a.fullName !== b.fullName || a.defaultBranch !== b.defaultBranch || a.private !== b.private || a.archived !== b.archived || a.htmlUrl !== b.htmlUrl || a.installationId !== b.installationId;
}

function repositoryDocument(repository: SourceRepository, known: RepositoryDocument | null, installationId: number | undefined, now: Date): RepositoryDocument {
  return {
    repositoryId: repository.id,
    fullName: repository.fullName,
    fullNameLower: repository.fullName.toLowerCase(),
    defaultBranch: repository.defaultBranch,
    private: repository.private,
    archived: repository.archived,
    htmlUrl: repository.htmlUrl,
    installationId: installationId ?? known?.installationId ?? null,
    updatedAt: now.toISOString(),
    backfillRequestedAt: known?.backfillRequestedAt ?? null,
  };
}
