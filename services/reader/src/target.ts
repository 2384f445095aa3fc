import type { Freshness, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';
import { parseRepositoryName } from './address/repository-name';
import { backfillSentence, queueBackfill } from './backfill';
import type { Principal, ReaderDeps } from './deps';
import { freshnessOf, shortRef, shortSha } from './freshness';
import { rankPaths } from './suggest/rank';
import { ToolError } from './tool-error';
import { heldCommits, heldList, resolveOlderCommit, type HeldCommit } from './address/older-commit';
import { cleanIndexError } from './index-error';
import { queueUnseen, unseenSentence } from './unseen';
import { snapshotOf } from './snapshot-of';

/** A readable ref of a repository: the snapshot a tool reads, pinned to the state's generation. */
export interface Target {
  repository: RepositoryDocument;
  state: RefState & { commitSha: string };
  snapshot: Snapshot;
  freshness: Freshness;
}

const SHA_PREFIX = /^[0-9a-f]{7,40}$/i;

/** The repository a caller means, if it is indexed and the caller may read it; else a REPOSITORY_NOT_FOUND error. */
export async function findRepository(deps: ReaderDeps, principal: Principal | null, input: string): Promise<RepositoryDocument> {
  const name = parseRepositoryName(input, deps.githubWebUrl);
  const repository = await lookupByName(deps, name);
  if (repository && deps.access(repository, principal)) return repository;
  // Never seen (or not the caller's, which reads the same): GitHub may have it, and this caller may have it queued.
  const outcome = await queueUnseen(deps, principal, name);
  if (outcome !== 'unknown') throw new ToolError('NOT_INDEXED', `${name} is ${unseenSentence(outcome, name, deps, principal)}`);
  throw await unknownRepository(deps, principal, name);
}

/** A repository by name, or null (names are case-insensitive). */
export async function lookupByName(deps: ReaderDeps, name: string): Promise<RepositoryDocument | null> {
  // One lookup whatever the name: the index folds case itself (fullNameLower), and a second
  // lookup only for names it lacks would let the count of round trips tell a private name from none.
  return deps.index.findRepositoryByName(name);
}

/**
 * The error for a repository the index does not hold, or that the caller may not read:
 * the same words for both, and suggestions only among repositories the caller may read.
 */
export async function unknownRepository(deps: ReaderDeps, principal: Principal | null, name: string): Promise<ToolError> {
  const readable = (await deps.index.listRepositories()).filter((r) => deps.access(r, principal));
  const suggestions = rankPaths(
    name,
    readable.map((r) => r.fullName),
    3,
  )
    .filter((r) => r.score >= 0.6)
    .map((r) => r.path);
  const didYouMean = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';
  return new ToolError(
    'REPOSITORY_NOT_FOUND',
    `${name} is not indexed: gitdex has never received an event for it.${didYouMean} To index it, run \`gitdex index ${name}\` where gitdex runs, or install the gitdex GitHub App on it (a private repository also needs gitdex's GitHub access). repositories_state lists the repositories you can read.`,
    { suggestions },
  );
}

/** The readable state of a ref (the default branch when `refInput` is omitted), or a caller error saying what is indexed. */
export async function resolveTarget(deps: ReaderDeps, repository: RepositoryDocument, refInput: string | undefined, known?: RefState[]): Promise<Target> {
  const states = known ?? (await deps.index.listRefStates(repository.repositoryId));
  const defaultRef = `refs/heads/${repository.defaultBranch}`;
  const state = refInput === undefined ? states.find((s) => s.ref === defaultRef) : matchRef(states, refInput);
  if (refInput !== undefined && (!state || /~\d+$/.test(refInput.trim()))) {
    const older = resolveOlderCommit(states, refInput, matchRef);
    if (older) return olderTarget(repository, older);
  }
  if (!state) {
    if (refInput === undefined) throw await notIndexedYet(deps, repository, defaultRef, null);
    throw unknownRef(repository, states, refInput);
  }
  if (state.commitSha === null) throw await notIndexedYet(deps, repository, state.ref, state);
  const ready = state as RefState & { commitSha: string };
  return {
    repository,
    state: ready,
    snapshot: snapshotOf(ready),
    freshness: freshnessOf(ready),
  };
}

/**
 * A commit the ref no longer serves but the index still holds: read at its generation, and
 * its freshness says it is older than the ref's newest commit.
 */
function olderTarget(repository: RepositoryDocument, held: HeldCommit): Target {
  const { state, commit } = held;
  const older = commit.commitSha !== state.commitSha;
  const pinned = {
    ...state,
    commitSha: commit.commitSha,
    generation: commit.generation,
    indexedAt: commit.indexedAt,
    committedAt: commit.committedAt,
    pendingCommitSha: null,
    pendingSince: null,
    sourceReceivedAt: older ? (commit.receivedAt ?? null) : state.sourceReceivedAt,
  };
  return {
    repository,
    state: pinned,
    snapshot: snapshotOf(state, commit.generation),
    freshness: { ...freshnessOf(pinned), ...(older ? { older_commit: true as const, ref_head: state.commitSha } : {}) },
  };
}

/** A pull request's head as GitHub keeps it (`refs/pull/N/head`) for "pull/N" or "pull/N/head"; else null. */
export function pullRefNamed(text: string): string | null {
  const pull = /^pull\/(\d{1,10})(?:\/head)?$/.exec(text);
  return pull ? `refs/pull/${pull[1]}/head` : null;
}

/** A branch ("main"), full ref, "heads/x" / "tags/x", a pull request ("pull/123"), or a prefix of an indexed commit. */
export function matchRef(states: RefState[], input: string): RefState | undefined {
  const text = input.trim();
  const byRef = (ref: string) => states.find((s) => s.ref === ref);
  if (text.startsWith('refs/')) return byRef(text);
  const named = byRef(`refs/heads/${text}`) ?? byRef(`refs/tags/${text}`) ?? (/^(heads|tags)\//.test(text) ? byRef(`refs/${text}`) : undefined);
  if (named) return named;
  // A branch named "pull/N" wins over the pull request, as shortRef shows both alike.
  const pull = pullRefNamed(text);
  if (pull) return byRef(pull);
  if (!SHA_PREFIX.test(text)) return undefined;
  const prefix = text.toLowerCase();
  refuseAmbiguous(states, text, prefix);
  // Several refs may sit at the same commit: the same content, so the first (by ref) will do.
  return states.find((s) => s.commitSha !== null && s.commitSha.startsWith(prefix));
}

/**
 * A prefix that names two different commits (two heads, or a head and a commit held before it)
 * names neither: the caller error lists them, instead of reading whichever came first.
 */
function refuseAmbiguous(states: RefState[], text: string, prefix: string): void {
  const commits = new Map<string, string[]>();
  for (const state of states) {
    if (state.commitSha === null) continue;
    for (const commit of heldCommits(state)) {
      if (!commit.commitSha.startsWith(prefix)) continue;
      const refs = commits.get(commit.commitSha) ?? [];
      if (!refs.includes(shortRef(state.ref))) refs.push(shortRef(state.ref));
      commits.set(commit.commitSha, refs);
    }
  }
  if (commits.size < 2) return;
  const listed = [...commits].map(([sha, refs]) => `${sha} (${refs.join(', ')})`).join(', ');
  throw new ToolError('INVALID_ARGUMENT', `ref: ${text} is a prefix of ${commits.size} different commits gitdex holds: ${listed}. Give more digits of the one you mean.`);
}

function unknownRef(repository: RepositoryDocument, states: RefState[], input: string): ToolError {
  const indexed = states.filter((s) => s.commitSha !== null);
  const list = indexed.length > 0 ? indexed.map((s) => `${shortRef(s.ref)} (${shortSha(s.commitSha)})`).join(', ') : 'none yet';
  const text = input.trim();
  if (SHA_PREFIX.test(text)) {
    const prefix = text.toLowerCase();
    const pending = states.find((s) => s.pendingCommitSha?.startsWith(prefix));
    if (pending) {
      return new ToolError(
        'NOT_INDEXED',
        `Commit ${text} of ${repository.fullName} was pushed to ${shortRef(pending.ref)} and is being indexed now: try again in a few seconds, or leave out ref to read the commit indexed before it (${shortSha(pending.commitSha)}).`,
      );
    }
    return new ToolError(
      'NOT_FOUND',
      `Commit ${text} is not held for ${repository.fullName}: it is older than what gitdex keeps, or was never indexed (only the commits pushes pointed at are). ${heldList(states)} Leave out ref to read the default branch, or pass one of these.`,
    );
  }
  const suggestions = rankPaths(
    text,
    indexed.map((s) => shortRef(s.ref)),
    3,
  )
    .filter((r) => r.score >= 0.6)
    .map((r) => r.path);
  const didYouMean = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';
  return new ToolError(
    'NOT_FOUND',
    `Ref ${text} is not indexed for ${repository.fullName}.${didYouMean} Indexed refs: ${list}. Leave out ref to read the default branch (${repository.defaultBranch}); which refs gitdex indexes is set by its configuration (GITDEX_INDEXED_REFS).`,
    { suggestions },
  );
}

async function notIndexedYet(deps: ReaderDeps, repository: RepositoryDocument, ref: string, state: RefState | null): Promise<ToolError> {
  let detail = '';
  if (state?.status === 'indexing') detail = ' (its first index is running)';
  else if (state?.status === 'failed') detail = ` (the last attempt failed: ${cleanIndexError(state.lastError) ?? 'no reason recorded'})`;
  // A first index under way needs no second request.
  const outcome = state?.status === 'indexing' ? 'already_queued' : await queueBackfill(deps, repository, ref);
  return new ToolError('NOT_INDEXED', `${repository.fullName} (${shortRef(ref)}) is not indexed yet${detail}. ${backfillSentence(outcome, repository.fullName)}`);
}
