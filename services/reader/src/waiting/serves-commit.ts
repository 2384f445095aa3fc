import type { RefState } from '@gitdex/contracts';

/**
 * Whether a ref serves `wanted` (a sha or a prefix of 7 or more digits) or a commit known to
 * contain it: the served commit itself, the commits the pushes that led to it brought
 * (RefState.recentCommits, emptied by a forced push), or a commit this ref served before whose
 * line the served one continues (the parents recorded on its held commits). Known from the ref
 * state alone, without asking GitHub: a commit older than all of these reads as not served.
 */
export function servesCommit(state: RefState | undefined, wanted: string): boolean {
  if (!state?.commitSha) return false;
  const matches = (sha: string) => sha.startsWith(wanted);
  if (matches(state.commitSha)) return true;
  if (state.recentCommits?.some(matches)) return true;
  return ancestorsHeld(state).some(matches);
}

/** The held commits reachable from the served one through recorded parents, and those parents. */
function ancestorsHeld(state: RefState): string[] {
  const history = state.history ?? [];
  const reached = new Set<string>([state.commitSha ?? '']);
  for (const commit of history) {
    // history is newest first, so one pass follows a line of first parents down.
    if (!reached.has(commit.commitSha)) continue;
    for (const parent of commit.parentShas) reached.add(parent);
  }
  for (const sha of state.recentCommits ?? []) reached.add(sha);
  reached.delete(state.commitSha ?? '');
  return [...reached];
}
