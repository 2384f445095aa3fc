import type { RepositoryDocument } from '@gitdex/contracts';
import { patternMatches, readablePatterns } from './access';
import { queueBackfill } from './backfill';
import type { Principal, ReaderDeps } from './deps';
import { ToolError } from './tool-error';
import type { BackfillCap, LookedUpRepository } from './unseen-lookup';
import { formatBytes } from './format/text';

/**
 * queued / already_queued: GitHub confirmed it and a backfill is (already) on its way.
 * unknown: not looked up, not on GitHub, or private and not the caller's — one answer for all, so nothing is hinted.
 * lookup_failed / failed: GitHub or the event log did not answer; says nothing about the repository.
 */
export type UnseenOutcome = 'queued' | 'already_queued' | 'unknown' | 'lookup_failed' | 'failed';

/**
 * A caller asks about a repository the index does not hold: when the policy lets this caller
 * have it looked up, asks GitHub, and queues a backfill if it exists and the caller may read
 * it (public, or private and named by the caller's token). Lookups are rate-limited per
 * token, and per client address for callers without one (deps.address, set by the HTTP
 * transports; stdio and in-process callers share one bucket). Callers without a token also
 * share a daily budget of lookups, and what they queue is marked so that the indexer
 * indexes it only within the size cap (deps.anonymousBackfillCap).
 */
export async function queueUnseen(deps: ReaderDeps, principal: Principal | null, name: string): Promise<UnseenOutcome> {
  if (!deps.lookup || !deps.publisher || deps.queueUnseen === 'off') return 'unknown';
  const covers = (fullName: string) => readablePatterns(principal).some((pattern) => patternMatches(pattern, fullName));
  if (deps.queueUnseen === 'tokens' && !covers(name)) return 'unknown';
  const key = principal ? `principal:${principal.id}` : `address:${deps.address ?? 'local'}`;
  const wait = deps.unseenLookups.take(key);
  if (wait > 0) {
    throw new ToolError(
      'UNAVAILABLE',
      `Too many lookups of repositories gitdex has not indexed: at most ${deps.unseenLookups.perMinute} a minute per token (per address without one). Retry after ${wait} second${wait === 1 ? '' : 's'}, or run \`gitdex index ${name}\` where gitdex runs.`,
    );
  }
  if (!principal && !deps.anonymousLookups.take()) {
    const hours = Math.ceil(deps.anonymousLookups.secondsToRefill() / 3600);
    throw new ToolError(
      'UNAVAILABLE',
      `gitdex looks up at most ${deps.anonymousLookups.perDay} repositories it has not indexed a day for callers without a token, and today's are used. Retry in ${hours} hour${hours === 1 ? '' : 's'}, call with a token, or run \`gitdex index ${name}\` where gitdex runs.`,
    );
  }
  let found: LookedUpRepository | null;
  try {
    found = await deps.lookup(name);
  } catch (error) {
    deps.logger?.warn({ err: error, repository: name }, 'reader: could not look up an unseen repository on GitHub');
    return 'lookup_failed';
  }
  if (!found) return 'unknown';
  const repository = asDocument(found, deps.now());
  // A private repository is queued only for a caller who could read it once indexed: its token names it (by the name asked and the name GitHub answered, in case of a rename) and the access hook agrees.
  if (found.private && !(covers(name) && covers(found.fullName) && deps.access(repository, principal))) return 'unknown';
  const outcome = await queueBackfill(deps, repository, undefined, principal ? 'state_query' : 'anonymous_lookup');
  if (outcome === 'no_publisher') return 'unknown';
  return outcome;
}

/** What the reader should answer for an unseen repository, after queueUnseen (for this caller: the size cap applies to callers without a token). */
export function unseenSentence(outcome: Exclude<UnseenOutcome, 'unknown'>, fullName: string, deps?: ReaderDeps, principal?: Principal | null): string {
  const capped = deps !== undefined && principal === null ? ` ${capSentence(deps.anonymousBackfillCap, fullName)}` : '';
  switch (outcome) {
    case 'queued':
      return `not indexed yet: GitHub has it and it is now queued for indexing. Try again in a minute (repositories_state shows progress).${capped}`;
    case 'already_queued':
      return `not indexed yet: indexing it is already queued. Try again in a minute (repositories_state shows progress).${capped}`;
    case 'lookup_failed':
      return `not indexed: gitdex could not ask GitHub about it just now. Try again shortly, or run \`gitdex index ${fullName}\` where gitdex runs.`;
    case 'failed':
      return `not indexed: queuing it for indexing failed just now. Try again shortly, or run \`gitdex index ${fullName}\` where gitdex runs.`;
  }
}

/** The size cap of a backfill queued without a token, as the caller reads it. */
export function capSentence(cap: BackfillCap, fullName: string): string {
  return `Queued without a token, it is indexed only if its default branch holds at most ${cap.maxFiles.toLocaleString('en-US')} files and ${formatBytes(cap.maxBytes)}; a larger one is left unindexed (run \`gitdex index ${fullName}\` where gitdex runs).`;
}

function asDocument(found: LookedUpRepository, now: Date): RepositoryDocument {
  return {
    repositoryId: found.id,
    fullName: found.fullName,
    fullNameLower: found.fullName.toLowerCase(),
    defaultBranch: found.defaultBranch,
    private: found.private,
    archived: false,
    htmlUrl: found.htmlUrl,
    installationId: null,
    updatedAt: now.toISOString(),
    backfillRequestedAt: null,
  };
}
