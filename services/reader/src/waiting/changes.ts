import type { RefState, RetainedCommit, ServedCommit } from '@gitdex/contracts';
import { lagMs } from '../freshness';

/**
 * The changes feed of a repository (GET .../changes): the commits its refs started serving,
 * read from the commits each ref state holds (RefState.history, with when each was pushed and
 * served and the paths it changed). A feed point is a served commit: `since` finds when it was
 * served, and every commit any ref served after that is a change.
 */

/** The commits a ref state holds, newest first; a state from before history was kept holds its served one. */
function heldOf(state: RefState): RetainedCommit[] {
  if (state.history && state.history.length > 0) return state.history;
  if (!state.commitSha || !state.indexedAt) return [];
  return [{ commitSha: state.commitSha, generation: state.generation, parentShas: [], committedAt: state.committedAt, indexedAt: state.indexedAt, receivedAt: state.sourceReceivedAt }];
}

export function servedCommit(ref: string, held: RetainedCommit): ServedCommit {
  const paths = held.changedPaths ?? [];
  return {
    ref,
    sha: held.commitSha,
    pushed_at: held.receivedAt ?? null,
    served_at: held.indexedAt,
    lag_ms: lagMs(held.receivedAt, held.indexedAt),
    paths,
    paths_complete: held.changedPaths !== undefined && (held.changedCount ?? paths.length) <= paths.length,
  };
}

/** When `since` (a sha or prefix) was served by any ref, if the index still holds it; null when unknown. */
export function servedAtOf(states: RefState[], since: string): string | null {
  let at: string | null = null;
  for (const state of states) for (const held of heldOf(state)) if (held.commitSha.startsWith(since) && (at === null || held.indexedAt > at)) at = held.indexedAt;
  return at;
}

/** Served after `after` (an ISO time), oldest first. */
export function changesAfter(states: RefState[], after: string): ServedCommit[] {
  const changes: ServedCommit[] = [];
  for (const state of states) for (const held of heldOf(state)) if (held.indexedAt > after) changes.push(servedCommit(state.ref, held));
  return changes.sort((a, b) => (a.served_at ?? '').localeCompare(b.served_at ?? ''));
}

/** Served by refs whose generation moved past `seen` (ref → generation), oldest first. */
export function changesSince(states: RefState[], seen: Map<string, number>): ServedCommit[] {
  const changes: ServedCommit[] = [];
  for (const state of states) {
    const before = seen.get(state.ref) ?? 0;
    for (const held of heldOf(state)) if (held.generation > before) changes.push(servedCommit(state.ref, held));
  }
  return changes.sort((a, b) => (a.served_at ?? '').localeCompare(b.served_at ?? ''));
}

/** The newest commit any ref serves: where a feed starts when no since is given. */
export function newestServed(states: RefState[]): string | null {
  let newest: RefState | null = null;
  for (const state of states) if (state.commitSha && state.indexedAt && (!newest || (newest.indexedAt ?? '') < state.indexedAt)) newest = state;
  return newest?.commitSha ?? null;
}

export function generationsOf(states: RefState[]): Map<string, number> {
  return new Map(states.map((state) => [state.ref, state.generation]));
}
