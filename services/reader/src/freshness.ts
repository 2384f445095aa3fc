import type { Freshness, RefState } from '@gitdex/contracts';

/** Which commit an answer shows and whether a newer push of the ref waits to be indexed. */
export function freshnessOf(state: RefState): Freshness {
  const pending = state.pendingCommitSha !== null && state.pendingCommitSha !== state.commitSha;
  return {
    commit: state.commitSha ?? '',
    indexed_at: state.indexedAt,
    pending,
    ...(pending && state.pendingCommitSha ? { pending_commit: state.pendingCommitSha } : {}),
    served_at: state.indexedAt,
    lag_ms: lagMs(state.sourceReceivedAt, state.indexedAt),
  };
}

/** Push received → served, in milliseconds; null when either is unknown. */
export function lagMs(receivedAt: string | null | undefined, servedAt: string | null | undefined): number | null {
  if (!receivedAt || !servedAt) return null;
  const lag = Date.parse(servedAt) - Date.parse(receivedAt);
  return Number.isFinite(lag) ? Math.max(0, lag) : null;
}

/** Short form of a sha for messages. */
export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 12) : 'none';
}

/** "refs/heads/main" → "main", "refs/tags/v1" → "v1", "refs/pull/7/head" → "pull/7" (no prefix kept; a branch of the same name wins). */
export function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '').replace(/^refs\/(pull\/\d+)\/head$/, '$1');
}
