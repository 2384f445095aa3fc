import type { GitdexEvent } from '@gitdex/contracts';
import { PortError, type DeadLetterStore, type EventBatchHandler, type EventEnvelope } from '@gitdex/ports';
import { errorFields, parseTraceparent, type Log } from '@gitdex/observability';
import { handleEvent, type HandleEventDeps } from './handle-event';
import { emptyRefState } from './index-ref';
import { OneAtATime } from './one-at-a-time';
import type { IndexerMetrics } from './metrics';
import { countOutcome } from './outcome-metrics';
import { DEFAULT_RETRY_POLICY, delayBeforeRetry, describeError, type RetryPolicy } from './retry-policy';

export interface WorkerDeps extends HandleEventDeps {
  deadLetters: DeadLetterStore;
  retry?: RetryPolicy;
  log: Log;
  metrics?: IndexerMetrics;
  /** Sleeps between retries; ends early (rejecting) when the worker stops. */
  sleep?: (ms: number) => Promise<void>;
}

/** Raised when the worker is stopping mid-retry: offsets stay uncommitted and another member takes over. */
export class WorkerStopping extends Error {}

/** Repositories of one batch handled side by side, at most. */
export const REPOSITORIES_AT_ONCE = 4;

/**
 * Handles a batch of events. The consumers hand it one repository's queued events at a time,
 * oldest first, and keep many repositories in flight themselves (libs/kafka's InFlightScheduler,
 * the embedded log's groups; docs/design/in-flight-events.md); a batch holding several
 * repositories is still handled side by side (up to REPOSITORIES_AT_ONCE), each in order.
 * Events of one repository and ref are coalesced (each converges to GitHub's current state, so
 * only the last matters), and one repository's events run one at a time across the process.
 * The batch resolves once every event is handled. Transient failures are retried first; an event
 * that still fails goes to the dead letters with its reason, and the batch moves on.
 */
export function createBatchHandler(deps: WorkerDeps): EventBatchHandler {
  // Shared by every group member of the process: one event of a repository at a time (see OneAtATime).
  const perRepository = new OneAtATime();
  return async (batch) => {
    const events = coalesce(batch);
    await markPending(deps, events);
    const byRepository = new Map<string, EventEnvelope[]>();
    for (const envelope of events) {
      const key = String(envelope.event.repository.id);
      const queued = byRepository.get(key);
      if (queued) queued.push(envelope);
      else byRepository.set(key, [envelope]);
    }
    const queue = [...byRepository];
    const lane = async (): Promise<void> => {
      try {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const [key, envelopes] = next;
          for (const envelope of envelopes) await perRepository.run(key, () => processWithRetries(deps, envelope));
        }
      } catch (error) {
        // Stopping: no lane starts another repository; the batch is fetched again by whoever takes over.
        queue.length = 0;
        throw error;
      }
    };
    // Every lane runs to its end before the batch does (a stopping worker's error comes after).
    const ends = await Promise.allSettled(Array.from({ length: Math.min(REPOSITORIES_AT_ONCE, queue.length) }, lane));
    const failed = ends.find((end): end is PromiseRejectedResult => end.status === 'rejected');
    if (failed) throw failed.reason;
  };
}

export function coalesce(batch: EventEnvelope[]): EventEnvelope[] {
  const last = new Map<string, number>();
  batch.forEach((envelope, i) => last.set(keyOf(envelope.event), i));
  return batch.filter((envelope, i) => last.get(keyOf(envelope.event)) === i);
}

function keyOf(event: GitdexEvent): string {
  const ref = event.kind === 'pull_request' ? `pull/${event.pull.number}` : 'ref' in event && event.ref ? event.ref : '*';
  return `${event.kind}|${event.repository.id}|${ref}`;
}

/** Readers can tell a newer push is on its way; best effort, the index may be down. */
async function markPending(deps: WorkerDeps, events: EventEnvelope[]): Promise<void> {
  for (const { event } of events) {
    if (event.kind !== 'push' || event.deleted) continue;
    try {
      const state = (await deps.index.getRefState(event.repository.id, event.ref)) ?? emptyRefState(event.repository.id, event.ref);
      if (state.commitSha === event.after || state.pendingCommitSha === event.after) continue;
      await deps.index.putRefState({ ...state, pendingCommitSha: event.after, pendingSince: event.receivedAt });
    } catch (error) {
      // Handling the event retries until the index answers; this only says it could not be marked early.
      deps.log.warn({ ...errorFields(error), eventId: event.eventId, repository: event.repository.fullName }, 'could not mark the push pending on its ref state');
    }
  }
}

async function processWithRetries(deps: WorkerDeps, envelope: EventEnvelope): Promise<void> {
  const policy = deps.retry ?? DEFAULT_RETRY_POLICY;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { event } = envelope;
  // Every log line of this work carries the delivery, repository, commit and trace, so one push can be followed.
  const context = {
    eventId: event.eventId,
    kind: event.kind,
    repository: event.repository.fullName,
    ...('ref' in event && event.ref ? { ref: event.ref } : {}),
    ...(event.kind === 'push' ? { commit: event.after } : {}),
    traceId: parseTraceparent(envelope.headers.traceparent)?.traceId,
    position: envelope.position,
  };
  let firstFailureAt: number | undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const stopTimer = deps.metrics?.indexSeconds.startTimer();
      const outcome = await handleEvent(deps, event);
      const strategy =
        outcome.action === 'synced'
          ? outcome.refs.map((r) => (r.outcome === 'deleted' ? 'deleted' : r.outcome.status === 'indexed' ? r.outcome.strategy : 'unchanged')).join('+') || 'none'
          : outcome.action;
      stopTimer?.({ strategy });
      deps.metrics?.events.inc({ kind: event.kind, outcome: outcome.action });
      if (deps.metrics) countOutcome(deps.metrics, outcome);
      deps.log.info({ ...context, outcome }, 'event handled');
      return;
    } catch (error) {
      if (error instanceof WorkerStopping) throw error;
      const reason = describeError(error);
      if (!(await deps.index.ping().catch(() => false))) {
        // The index itself is down: that is no fault of the event, so wait without counting attempts.
        deps.metrics?.retries.inc({ code: 'INDEX_UNAVAILABLE' });
        deps.log.warn({ ...context, reason }, 'index unavailable; waiting');
        attempt -= 1;
        await sleep(Math.min(5000, delayBeforeRetry(error, 3, policy)));
        continue;
      }
      const unrecorded = await recordFailure(deps, event, reason, attempt, context);
      const retriable = !(error instanceof PortError) || error.retriable;
      const now = deps.now().getTime();
      firstFailureAt ??= now;
      const budgetLeft = retriable && now - firstFailureAt < policy.retryBudgetMs;
      if (!retriable || (attempt >= policy.maxAttempts && !budgetLeft)) {
        // The dead letter says when readers were not shown the failure, so an operator knows the ref state is stale.
        const letterReason = unrecorded === undefined ? reason : `${reason} (the ref's failed state was not recorded: ${unrecorded})`;
        await deps.deadLetters.add({ raw: JSON.stringify(event), event, reason: letterReason, attempts: attempt, failedAt: deps.now().toISOString() });
        deps.metrics?.deadLetters.inc();
        deps.metrics?.events.inc({ kind: event.kind, outcome: 'dead_lettered' });
        deps.log.error({ ...context, reason, attempts: attempt }, 'event sent to the dead letters');
        return;
      }
      const delay = delayBeforeRetry(error, attempt, policy);
      deps.metrics?.retries.inc({ code: error instanceof PortError ? error.code : 'ERROR' });
      deps.log.warn({ ...context, reason, attempt, delayMs: delay }, 'event failed; retrying');
      await sleep(delay);
    }
  }
}

/**
 * The failure shows on the ref's state while the previous content keeps serving. A failure to
 * record it is logged with the event's context and returned (described) for the dead letter; the
 * event itself still goes on to its retry or its dead letter, so neither failure is lost.
 */
async function recordFailure(deps: WorkerDeps, event: GitdexEvent, reason: string, attempt: number, context: object): Promise<string | undefined> {
  const ref =
    event.kind === 'pull_request'
      ? `refs/pull/${event.pull.number}/head`
      : 'ref' in event && event.ref
        ? event.ref
        : event.repository.defaultBranch
          ? `refs/heads/${event.repository.defaultBranch}`
          : undefined;
  if (!ref) return undefined;
  try {
    const state = (await deps.index.getRefState(event.repository.id, ref)) ?? emptyRefState(event.repository.id, ref);
    await deps.index.putRefState({ ...state, status: 'failed', lastError: reason.slice(0, 2000), attempts: attempt });
    return undefined;
  } catch (error) {
    deps.log.error({ ...context, ...errorFields(error), reason, attempt }, 'could not record the failure on the ref state');
    return describeError(error);
  }
}
