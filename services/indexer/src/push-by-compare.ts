import type { PushEvent } from '@gitdex/contracts';
import { PortError, type Source, type SourceComparison, type SourceCommit, type SourceFile, type SourceRepository } from '@gitdex/ports';
import type { Prepared } from './index-ref';
import { branchOf } from './ref-selection';
import type { TreeChange } from './tree-diff';

/** The push as two requests found it: the repository now, the new head, and, when exact, its changes. */
export interface ComparedPush {
  repository: SourceRepository;
  head: SourceCommit;
  /** Absent when compare could not say exactly what changed (force push, more than 300 files). */
  prepared?: Prepared;
  /** Compare's list was cut at 300 files: the change is wide. */
  wide: boolean;
  /** Compare's answer from the served commit (its commits feed history). */
  comparison: { base: string; result: SourceComparison };
}

/**
 * What a push changed, from GitHub's compare (the served commit against the branch now) and one
 * GraphQL query (the repository's current metadata and the changed files' entries and bytes).
 * Compare lists files from the merge base, so its list is the change only when the served commit
 * is an ancestor of the head ("ahead") and the list was not cut at 300; otherwise the head it gave
 * is still used and the indexer compares trees as before. Null whenever the answer is not one
 * this path can trust (repository renamed or gone, default branch moved, head not listed): the
 * caller then takes the full path, which asks GitHub for everything again.
 */
export async function comparePush(
  source: Pick<Source, 'batchReads'>,
  known: SourceRepository,
  event: PushEvent,
  served: { commitSha: string; treeSha: string | null; committedAt: string | null },
): Promise<ComparedPush | null> {
  const batch = source.batchReads;
  const branch = branchOf(event.ref);
  if (!batch || !branch || event.deleted) return null;
  let comparison: SourceComparison;
  try {
    comparison = await batch.compare(known, served.commitSha, branch, event.installationId);
  } catch (error) {
    if (error instanceof PortError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
  const head = comparison.status === 'identical' && served.treeSha ? { sha: served.commitSha, treeSha: served.treeSha, committedAt: served.committedAt ?? new Date(0).toISOString() } : comparison.head;
  if (!head) return null;
  const exact = comparison.status === 'ahead' && comparison.complete;
  const wanted = exact ? comparison.files.filter((f) => f.status !== 'removed' && f.status !== 'unchanged').map((f) => f.path) : [];
  const read = await batch.files(known, head.sha, wanted, event.installationId);
  const current = read.repository;
  if (!current || current.id !== known.id || current.defaultBranch !== known.defaultBranch) return null;
  const wide = comparison.status === 'ahead' && !comparison.complete;
  const compared = { base: served.commitSha, result: comparison };
  if (!exact) return { repository: current, head, wide, comparison: compared };
  const changes = changesOf(comparison, read.files);
  if (!changes) return { repository: current, head, wide, comparison: compared };
  const contents = new Map<string, Buffer>();
  for (const file of read.files.values()) if (file.content) contents.set(file.path, file.content);
  return { repository: current, head, wide, comparison: compared, prepared: { fromCommit: served.commitSha, changes, contents } };
}

/** Compare's files as tree changes; null when an entry is not a file (a path became a folder). */
function changesOf(comparison: SourceComparison, files: Map<string, SourceFile>): TreeChange[] | null {
  const changes: TreeChange[] = [];
  for (const changed of comparison.files) {
    if (changed.status === 'unchanged') continue;
    if (changed.previousPath !== undefined && changed.status === 'renamed') changes.push({ type: 'delete', path: changed.previousPath });
    if (changed.status === 'removed') {
      changes.push({ type: 'delete', path: changed.path });
      continue;
    }
    const file = files.get(changed.path);
    // Listed as changed but not in the head commit: it is gone.
    if (!file) changes.push({ type: 'delete', path: changed.path });
    else if (file.type === 'tree') return null;
    else changes.push({ type: 'upsert', entry: { path: file.path, mode: file.mode, type: file.type, sha: file.sha, size: file.size } });
  }
  return changes;
}
