import { MAX_CHANGED_PATHS, MAX_RECENT_COMMITS, ZERO_SHA, type PushEvent, type RefState } from '@gitdex/contracts';

/**
 * What a ref state records for readers waiting on their own push (docs/design/read-your-own-push.md):
 * the commits the served one is known to contain, and which paths each flip changed.
 */

/** The commits a push event says its head contains. */
export interface PushedCommits {
  /** Oldest first, as GitHub lists them. */
  commits: string[];
  before: string;
  forced: boolean;
}

export function pushedCommitsOf(event: PushEvent): PushedCommits {
  return { commits: event.commits ?? [], before: event.before, forced: event.forced };
}

/**
 * The commits a new head contains as far as the pushes tell, newest first: its parents, the
 * push's commits and `before`, and, unless the push was forced, what the ref served and knew
 * before. Without a push (a backfill) only the parents are known: an older commit may not be
 * an ancestor of whatever GitHub's branch now points at.
 */
export function recentCommitsAfter(state: RefState, head: { sha: string; parentShas?: string[] | undefined }, pushed: PushedCommits | undefined): string[] {
  const known = [...(head.parentShas ?? [])];
  if (pushed) {
    known.push(...[...pushed.commits].reverse());
    if (!pushed.forced) {
      known.push(pushed.before);
      if (state.commitSha) known.push(state.commitSha);
      known.push(...(state.recentCommits ?? []));
    }
  }
  return [...new Set(known.filter((sha) => sha !== head.sha && sha !== ZERO_SHA))].slice(0, MAX_RECENT_COMMITS);
}

/** recentCommits of a state that already serves the push's head, with what that push adds; null when it adds nothing. */
export function recentCommitsAdded(state: RefState, pushed: PushedCommits | undefined): string[] | null {
  if (!pushed || pushed.forced || !state.commitSha) return null;
  const have = new Set(state.recentCommits ?? []);
  const added = [...pushed.commits].reverse().filter((sha) => sha !== state.commitSha && !have.has(sha));
  if (added.length === 0) return null;
  return [...added, ...(state.recentCommits ?? [])].slice(0, MAX_RECENT_COMMITS);
}

/** The paths one flip changed: the first MAX_CHANGED_PATHS, and how many in all. */
export class ChangedPaths {
  readonly paths: string[] = [];
  count = 0;

  note(path: string): void {
    this.count += 1;
    if (this.paths.length < MAX_CHANGED_PATHS) this.paths.push(path);
  }
}
