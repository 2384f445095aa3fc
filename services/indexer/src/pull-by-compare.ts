import { PortError, type BatchReads, type SourceComparison, type SourceCommit, type SourceRepository } from '@gitdex/ports';
import type { Prepared } from './index-ref';
import type { TreeChange } from './tree-diff';

/** A pull request's head and, when two compares could say it exactly, the paths where it may differ from its base. */
export interface ComparedPull {
  /** Null when compare's commit list stopped before the head: the caller reads the commit. */
  head: SourceCommit | null;
  prepared?: Prepared;
  /** Compare from the base's served commit to the head: history takes the pull request's commits from it. */
  comparison: { base: string; result: SourceComparison };
}

/**
 * The paths where a pull request's head may differ from the base branch's served commit, from
 * GitHub's compare instead of walking both trees (a tree read per changed folder). Compare lists
 * files from the merge base, so when the base moved on since the branch was cut ("diverged") a
 * second compare, head to base, lists what the base changed since: every path whose version
 * differs between the two commits is in one list or the other. Entries and bytes at the head come
 * from one GraphQL query. The candidates may hold paths equal in both (a change made on both
 * sides): the layer drops those against the base's entries. Absent (undefined) when compare
 * cannot say it: a list cut at 300 files, a path that became a folder, a commit GitHub lacks.
 */
export async function comparePull(batch: BatchReads, repository: SourceRepository, baseCommit: string, headSha: string, installationId?: number): Promise<ComparedPull | null> {
  const forward = await compareOrNull(batch, repository, baseCommit, headSha, installationId);
  if (!forward) return null;
  const head = forward.status === 'identical' ? null : forward.head;
  const comparison = { base: baseCommit, result: forward };
  const backward = forward.status === 'ahead' || forward.status === 'identical' ? null : await compareOrNull(batch, repository, headSha, baseCommit, installationId);
  if (!forward.complete || (forward.status !== 'ahead' && forward.status !== 'identical' && !backward?.complete)) return { head, comparison };
  const candidates = new Set<string>();
  for (const comparison of [forward, backward]) {
    for (const file of comparison?.files ?? []) {
      if (file.status === 'unchanged') continue;
      candidates.add(file.path);
      if (file.previousPath !== undefined) candidates.add(file.previousPath);
    }
  }
  const paths = [...candidates];
  const read = await batch.files(repository, headSha, paths, installationId);
  if (!read.repository || read.repository.id !== repository.id) return { head, comparison };
  const changes: TreeChange[] = [];
  const contents = new Map<string, Buffer>();
  for (const path of paths) {
    const file = read.files.get(path);
    if (!file) changes.push({ type: 'delete', path });
    else if (file.type === 'tree') return { head, comparison };
    else {
      changes.push({ type: 'upsert', entry: { path: file.path, mode: file.mode, type: file.type, sha: file.sha, size: file.size } });
      if (file.content) contents.set(file.path, file.content);
    }
  }
  return { head, comparison, prepared: { fromCommit: baseCommit, changes, contents } };
}

async function compareOrNull(batch: BatchReads, repository: SourceRepository, base: string, head: string, installationId?: number): Promise<SourceComparison | null> {
  try {
    return await batch.compare(repository, base, head, installationId);
  } catch (error) {
    if (error instanceof PortError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}
