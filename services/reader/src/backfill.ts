import type { BackfillEvent, RepositoryDocument } from '@gitdex/contracts';
import type { ReaderDeps } from './deps';

/** A repository is queued again only after this long: an index in flight takes a while. */
const REQUEUE_AFTER_MS = 10 * 60 * 1000;

export type BackfillOutcome = 'queued' | 'already_queued' | 'no_publisher' | 'failed';

/**
 * Asks the indexer to index a repository that has nothing readable yet. At most once per
 * repository in REQUEUE_AFTER_MS from this process (and not while the repository document
 * says a backfill is under way); the event id is the same within that window, so the
 * indexer can drop the copies other reader replicas send.
 */
export async function queueBackfill(deps: ReaderDeps, repository: RepositoryDocument, ref?: string, reason: 'state_query' | 'anonymous_lookup' = 'state_query'): Promise<BackfillOutcome> {
  const now = deps.now().getTime();
  const last = deps.backfillsQueued.get(repository.repositoryId);
  if (last !== undefined && now - last < REQUEUE_AFTER_MS) return 'already_queued';
  const requested = repository.backfillRequestedAt ? Date.parse(repository.backfillRequestedAt) : Number.NaN;
  if (!Number.isNaN(requested) && now - requested < REQUEUE_AFTER_MS) return 'already_queued';
  if (!deps.publisher) return 'no_publisher';
  const event: BackfillEvent = {
    kind: 'backfill',
    eventId: `state_query:${repository.repositoryId}:${ref ?? '*'}:${Math.floor(now / REQUEUE_AFTER_MS)}`,
    repository: {
      id: repository.repositoryId,
      fullName: repository.fullName,
      defaultBranch: repository.defaultBranch,
      private: repository.private,
      ...(isUrl(repository.htmlUrl) ? { htmlUrl: repository.htmlUrl } : {}),
    },
    ...(repository.installationId !== null ? { installationId: repository.installationId } : {}),
    receivedAt: new Date(now).toISOString(),
    ...(ref ? { ref } : {}),
    reason,
  };
  try {
    await deps.publisher.publish([{ event }]);
    deps.backfillsQueued.set(repository.repositoryId, now);
    return 'queued';
  } catch (error) {
    deps.logger?.warn({ err: error, repository: repository.fullName }, 'reader: could not queue a backfill');
    return 'failed';
  }
}

export function backfillSentence(outcome: BackfillOutcome, fullName: string): string {
  switch (outcome) {
    case 'queued':
      return 'It is now queued for indexing: try again in a minute (repositories_state shows progress).';
    case 'already_queued':
      return 'Indexing it is already queued: try again in a minute (repositories_state shows progress).';
    case 'no_publisher':
      return `This server cannot queue indexing; run \`gitdex index ${fullName}\` where gitdex runs.`;
    case 'failed':
      return `Queuing it for indexing failed just now; try again shortly, or run \`gitdex index ${fullName}\`.`;
  }
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
