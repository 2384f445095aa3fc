import { DEFAULT_WAIT_MS, type RefState, type RepositoryDocument } from '@gitdex/contracts';
import type { Principal, ReaderDeps } from '../deps';
import { lookupByName, matchRef, pullRefNamed } from '../target';
import { parseRepositoryName } from '../address/repository-name';
import { invalid } from '../tool-error';
import type { ToolAnswer } from '../tools/answer';
import { shortSha } from '../freshness';
import { servesCommit } from './serves-commit';

/** The arguments of a tool that reads a ref, as waitForCommit reads them. */
export interface WaitInput {
  repository?: string | undefined;
  ref?: string | undefined;
  /** compare's head: the ref whose commit it waits for. */
  head?: string | undefined;
  min_commit?: string | undefined;
  wait_ms?: number | undefined;
}

/** How a wait ended: served, or not by the deadline (then what the ref served at that moment). */
export type WaitOutcome = { served: true } | { served: false; wanted: string; seen: string | null };

/**
 * Holds a tool call until the ref it reads serves `min_commit` (servesCommit), or `wait_ms`
 * runs out, or the caller goes away: every tool that reads a ref gets it from callTool, before
 * the tool runs, so the tool itself reads what the wait saw or newer (the metadata window only
 * ever moves forward). A repository the caller may not read, or that does not exist, is not
 * waited on: the tool then answers as it would without min_commit. Null: nothing to wait for.
 */
export async function waitForCommit(deps: ReaderDeps, principal: Principal | null, input: WaitInput, signal?: AbortSignal): Promise<WaitOutcome | null> {
  const wanted = input.min_commit;
  if (wanted === undefined) return null;
  if (input.repository === undefined) throw invalid('min_commit: give repository too (min_commit waits for a commit of one repository)');
  const repository = await readableRepository(deps, principal, input.repository);
  if (!repository) return null;
  const states = await deps.index.listRefStates(repository.repositoryId);
  const ref = refOf(repository, states, input.ref ?? input.head);
  if (ref === null) return null;
  const found = (known: RefState[]) => known.find((state) => state.ref === ref);
  const first = found(states);
  if (servesCommit(first, wanted)) return { served: true };
  return new Promise<WaitOutcome>((resolve) => {
    let seen = first?.commitSha ?? null;
    const finish = (outcome: WaitOutcome) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      stop();
      resolve(outcome);
    };
    const stale = () => finish({ served: false, wanted, seen });
    const onAbort = () => stale();
    const stop = deps.watchers.listen(repository.repositoryId, (states) => {
      const state = found(states);
      seen = state?.commitSha ?? seen;
      if (servesCommit(state, wanted)) finish({ served: true });
    });
    const timer = setTimeout(stale, input.wait_ms ?? DEFAULT_WAIT_MS);
    timer.unref?.();
    if (signal?.aborted) stale();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The repository, when the caller may read it; else null (the tool gives the not-found answer). */
async function readableRepository(deps: ReaderDeps, principal: Principal | null, input: string): Promise<RepositoryDocument | null> {
  let name: string;
  try {
    name = parseRepositoryName(input, deps.githubWebUrl);
  } catch {
    return null;
  }
  const repository = await lookupByName(deps, name);
  return repository && deps.access(repository, principal) ? repository : null;
}

/**
 * The full ref a tool will read: the default branch, a ref the index has, or the branch of that
 * name it may have soon; null for a commit (a sha or ref~N), which is what it is and never moves.
 */
function refOf(repository: RepositoryDocument, states: RefState[], input: string | undefined): string | null {
  if (input === undefined) return `refs/heads/${repository.defaultBranch}`;
  const text = input.trim();
  const matched = /~\d+$/.test(text) ? undefined : matchRef(states, text);
  if (matched) return matched.ref;
  if (/^[0-9a-f]{7,40}$/i.test(text) || /~\d+$/.test(text)) return null;
  return refNotIndexedYet(text);
}

/** The ref a name will have once indexed, as matchRef reads it: a pull request opened a moment ago is `refs/pull/N/head`, not a branch. */
function refNotIndexedYet(text: string): string {
  if (text.startsWith('refs/')) return text;
  const pull = pullRefNamed(text);
  if (pull) return pull;
  return /^(heads|tags)\//.test(text) ? `refs/${text}` : `refs/heads/${text}`;
}

/**
 * An answer read after a wait that ran out: its freshness says stale and which commit was
 * wanted, unless the ref flipped to a newer commit between the deadline and the read.
 */
export function markStale<T>(answer: ToolAnswer<T>, outcome: WaitOutcome | null): ToolAnswer<T> {
  if (!outcome || outcome.served) return answer;
  const structured = answer.structured as Record<string, unknown>;
  let marked = false;
  const mark = (freshness: unknown): unknown => {
    if (!freshness || typeof freshness !== 'object') return freshness;
    const shown = (freshness as { commit?: string }).commit ?? null;
    if (outcome.seen !== null && shown !== outcome.seen) return freshness;
    marked = true;
    return { ...freshness, stale: true, wanted_commit: outcome.wanted };
  };
  const next: Record<string, unknown> = { ...structured };
  if ('freshness' in structured) next.freshness = mark(structured.freshness);
  if (Array.isArray(structured.repositories))
    next.repositories = structured.repositories.map((entry: unknown) => (entry && typeof entry === 'object' && 'freshness' in entry ? { ...entry, freshness: mark(entry.freshness) } : entry));
  if (!marked) return answer;
  const line = `\nNote: commit ${shortSha(outcome.wanted)} is not served yet (waited for it); this shows ${shortSha(outcome.seen)}.`;
  return { structured: next as T, text: `${answer.text}${line}` };
}
