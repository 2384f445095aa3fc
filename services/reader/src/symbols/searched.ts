import type { Freshness } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';
import type { Principal, ReaderDeps } from '../deps';
import { searchTargets } from '../search/scope';

/** One ref a symbol read covers: what the port is given, and what the answer names. */
export interface SymbolTarget {
  repository: string;
  snapshot: Snapshot;
  commit: string;
  freshness: Freshness;
}

/**
 * The refs find_symbol and find_references read, scoped exactly as search_code scopes them (one
 * repository and ref, a list and "owner/*" patterns, or every repository the caller may read): a
 * private repository the caller may not read is never read, counted or named.
 */
export async function symbolTargets(
  deps: ReaderDeps,
  principal: Principal | null,
  input: { repository?: string | undefined; repositories?: string[] | undefined; ref?: string | undefined },
): Promise<SymbolTarget[]> {
  const targets = await searchTargets(deps, principal, {
    ...(input.repository !== undefined ? { repository: input.repository } : {}),
    ...(input.repositories !== undefined ? { repositories: input.repositories } : {}),
    ...(input.ref !== undefined ? { ref: input.ref } : {}),
  });
  return targets.map((t) => ({ repository: t.repository.fullName, snapshot: t.snapshot, commit: t.state.commitSha, freshness: t.freshness }));
}

export function searchedOf(targets: SymbolTarget[]): { repository: string; ref: string; freshness: Freshness }[] {
  return targets.map((t) => ({ repository: t.repository, ref: t.snapshot.ref, freshness: t.freshness }));
}
