import { MAX_SEARCHED_REFS, type RefState, type RepositoryDocument } from '@gitdex/contracts';
import type { ReaderDeps } from '../deps';
import { freshnessOf, shortRef, shortSha } from '../freshness';
import { snapshotOf } from '../snapshot-of';
import { resolveTarget, type Target } from '../target';
import { invalid, ToolError } from '../tool-error';

/**
 * The refs of one repository a search reads: each name as `ref` takes it (branch, tag,
 * pull/N, commit), each glob ("pull/*", "release/**") over the refs indexed now, in the
 * order given, each ref once. A name that is not indexed is the caller's error, as for `ref`;
 * a glob may match nothing, as long as something is searched.
 */
export async function refTargets(deps: ReaderDeps, repository: RepositoryDocument, refs: string[]): Promise<Target[]> {
  const states = await deps.index.listRefStates(repository.repositoryId);
  const chosen = new Map<string, Target>();
  const add = (target: Target) => {
    const key = `${target.snapshot.ref}\0${target.snapshot.generation}`;
    if (!chosen.has(key)) chosen.set(key, target);
    if (chosen.size > MAX_SEARCHED_REFS) {
      throw invalid(`refs: ${refs.join(', ')} match more than ${MAX_SEARCHED_REFS} refs of ${repository.fullName}, at most ${MAX_SEARCHED_REFS} a call: name fewer, or narrow a glob ("pull/12*")`);
    }
  };
  for (const item of refs) {
    if (!item.includes('*')) {
      add(await resolveTarget(deps, repository, item, states));
      continue;
    }
    const glob = refGlob(item);
    const matched = states.filter((s): s is RefState & { commitSha: string } => s.commitSha !== null && (glob.test(shortRef(s.ref)) || glob.test(s.ref)));
    matched.sort((a, b) => shortRef(a.ref).localeCompare(shortRef(b.ref), 'en', { numeric: true }));
    for (const state of matched) add({ repository, state, snapshot: snapshotOf(state), freshness: freshnessOf(state) });
  }
  if (chosen.size === 0) {
    const indexed = states.filter((s) => s.commitSha !== null);
    const list = indexed.length > 0 ? indexed.map((s) => `${shortRef(s.ref)} (${shortSha(s.commitSha)})`).join(', ') : 'none yet';
    throw new ToolError('NOT_FOUND', `refs: ${refs.join(', ')} match no indexed ref of ${repository.fullName}. Indexed refs: ${list}.`);
  }
  return [...chosen.values()];
}

/** "pull/*" → a whole-name matcher: `*` stays within one folder of the ref name, `**` crosses folders. */
export function refGlob(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char !== '*') source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    else if (glob[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else source += '[^/]*';
  }
  return new RegExp(`^${source}$`);
}
