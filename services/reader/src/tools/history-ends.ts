/**
 * Resolves what compare and blame are asked about: a ref argument the index serves (branch, tag,
 * pull/N, a retained commit, ref~N), or else a commit only the history holds (a sha or prefix,
 * or ref~N further back than the retained commits).
 */
import { openTarget } from '../address/open-repository';
import type { OpenedRepository } from '../address/open-repository';
import type { ReaderDeps } from '../deps';
import type { Target } from '../target';
import { ToolError } from '../tool-error';
import { HeldHistory } from './held-history';

export interface End {
  /** as the caller gave it */
  readonly ref: string;
  readonly commit: string;
  /** the target it resolved to, when the index serves it as a ref */
  readonly target?: Target;
}

export async function resolveServed(deps: ReaderDeps, opened: OpenedRepository, ref: string | undefined): Promise<{ end: End } | { error: ToolError }> {
  try {
    const { target } = await openTarget(deps, opened, ref);
    return { end: { ref: ref ?? target.state.ref, commit: target.state.commitSha, target } };
  } catch (error) {
    if (error instanceof ToolError && error.code !== 'UNAVAILABLE' && error.code !== 'INTERNAL') return { error };
    throw error;
  }
}

/** A commit the history holds, by sha prefix or `ref~N`, or the error the ref lookup gave. */
export async function resolveHeld(deps: ReaderDeps, opened: OpenedRepository, held: HeldHistory, ref: string, error: ToolError): Promise<End> {
  const trimmed = ref.trim();
  if (/^[0-9a-f]{7,40}$/i.test(trimmed)) {
    const matches = [...held.commits.keys()].filter((sha) => sha.startsWith(trimmed.toLowerCase()));
    if (matches.length === 1) return { ref, commit: matches[0]! };
    if (matches.length > 1) throw new ToolError('INVALID_ARGUMENT', `${trimmed} is the start of ${matches.length} commits the history holds: give more digits`);
  }
  const back = /^(.+)~(\d+)$/.exec(trimmed);
  if (back) {
    const from = await resolveServed(deps, opened, back[1]);
    const start = 'end' in from ? from.end.commit : undefined;
    const commit = start && held.firstParents(start, Number(back[2]));
    if (commit) return { ref, commit };
  }
  throw error;
}
