import type { RefState, RetainedCommit } from '@gitdex/contracts';
import { shortRef, shortSha } from '../freshness';
import { ToolError } from '../tool-error';

const SHA_PREFIX = /^[0-9a-f]{7,40}$/i;
/** "main~2", "v1.2~1", "1a2b3c4~3": a base and a count of first parents to go back. */
const ANCESTOR = /^(.+?)~(\d{1,4})$/;

/** A commit the index still holds for a ref, chosen by sha, prefix or base~N. */
export interface HeldCommit {
  state: RefState & { commitSha: string };
  commit: RetainedCommit;
}

/** What a ref holds: its history, or just its served commit when it predates histories. */
export function heldCommits(state: RefState): RetainedCommit[] {
  if (state.history && state.history.length > 0) return state.history;
  if (state.commitSha === null || state.indexedAt === null) return [];
  return [{ commitSha: state.commitSha, generation: state.generation, parentShas: [], committedAt: state.committedAt, indexedAt: state.indexedAt }];
}

/**
 * Resolves a ref input that names an older commit: a sha or unique prefix (7+ hex) of any
 * commit a ref still holds, or `base~N` (N first parents back from a ref or a held commit),
 * as far as the held commits reach. Null when the input is not of that form; a caller error
 * listing what is held when it is, but names nothing held.
 */
export function resolveOlderCommit(states: RefState[], input: string, matchRef: (states: RefState[], input: string) => RefState | undefined): HeldCommit | null {
  const text = input.trim();
  const ancestor = ANCESTOR.exec(text);
  if (ancestor) {
    const [, base = '', count = '0'] = ancestor;
    const start = baseCommit(states, base, matchRef);
    if (!start) throw new ToolError('NOT_FOUND', `${base} (in ${text}) is neither an indexed ref nor a commit gitdex holds. ${heldList(states)}`);
    let current = start;
    for (let step = 1; step <= Number(count); step += 1) {
      const parent = current.commit.parentShas[0];
      const next = parent === undefined ? undefined : heldCommits(current.state).find((c) => c.commitSha === parent);
      if (!next) {
        const what = parent === undefined ? 'its parent is not known' : `that is commit ${shortSha(parent)}, which gitdex does not hold`;
        throw new ToolError('NOT_FOUND', `${text} reaches past what gitdex holds: ${base}~${step} is not held (${what}). ${heldList([current.state])}`);
      }
      current = { state: current.state, commit: next };
    }
    return current;
  }
  if (!SHA_PREFIX.test(text)) return null;
  const found = findHeld(states, text.toLowerCase());
  if (found.length === 0) return null;
  const distinct = [...new Set(found.map((f) => f.commit.commitSha))];
  if (distinct.length > 1) throw new ToolError('INVALID_ARGUMENT', `${text} is a prefix of several held commits (${distinct.map(shortSha).join(', ')}): give more digits`);
  return found[0] ?? null;
}

function baseCommit(states: RefState[], base: string, matchRef: (states: RefState[], input: string) => RefState | undefined): HeldCommit | null {
  const state = matchRef(states, base);
  if (state && state.commitSha !== null && !SHA_PREFIX.test(base.trim())) {
    const newest = heldCommits(state)[0];
    return newest ? { state: state as HeldCommit['state'], commit: newest } : null;
  }
  if (!SHA_PREFIX.test(base.trim())) return null;
  return findHeld(states, base.trim().toLowerCase())[0] ?? null;
}

function findHeld(states: RefState[], prefix: string): HeldCommit[] {
  const found: HeldCommit[] = [];
  for (const state of states) {
    if (state.commitSha === null) continue;
    for (const commit of heldCommits(state)) if (commit.commitSha.startsWith(prefix)) found.push({ state: state as HeldCommit['state'], commit });
  }
  return found;
}

/** "Held: main: 1a2b3c (main), 0f9e8d (main~1); v1: …" for errors. */
export function heldList(states: RefState[]): string {
  const parts = states
    .filter((s) => s.commitSha !== null)
    .map(
      (s) =>
        `${shortRef(s.ref)}: ${heldCommits(s)
          .map((c, i) => `${shortSha(c.commitSha)}${i === 0 ? ' (newest)' : ''}`)
          .join(', ')}`,
    );
  return parts.length > 0 ? `Commits gitdex holds (readable by sha, a 7+ digit prefix, or ref~N along first parents): ${parts.join('; ')}.` : 'gitdex holds no commit of this repository yet.';
}
