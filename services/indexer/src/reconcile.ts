import type { BackfillEvent } from '@gitdex/contracts';
import type { EventPublisher, IndexReads, IndexWrites, Source } from '@gitdex/ports';
import { branchOf } from './ref-selection';

export interface ReconcileDeps {
  index: IndexReads & IndexWrites;
  source: Source;
  publisher: EventPublisher;
  now: () => Date;
}

export interface Drift {
  repository: string;
  ref: string;
  indexed: string | null;
  head: string | null;
}

/** A repository whose metadata on GitHub differed from the index, and what was applied. */
export interface MetadataChange {
  repository: string;
  changed: ('private' | 'archived' | 'fullName' | 'defaultBranch')[];
}

export interface ReconcileReport {
  checked: number;
  drifted: Drift[];
  /** Metadata re-read from GitHub and applied at once (visibility never waits for a push). */
  metadata: MetadataChange[];
  failed: { repository: string; error: string }[];
}

/**
 * Compares every indexed ref with GitHub's current head and queues a backfill for each
 * one that drifted, so a missed or failed webhook heals by itself. It only queues:
 * the indexer does the work, in order with the repository's other events.
 */
export async function reconcile(deps: ReconcileDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, drifted: [], metadata: [], failed: [] };
  const states = await deps.index.listRefStates();
  const repositories = new Map((await deps.index.listRepositories()).map((r) => [r.repositoryId, r]));
  for (const repository of repositories.values()) {
    try {
      const change = await refreshMetadata(deps, repository);
      if (change) {
        report.metadata.push(change);
        repositories.set(repository.repositoryId, (await deps.index.getRepository(repository.repositoryId)) ?? repository);
      }
    } catch (error) {
      report.failed.push({ repository: repository.fullName, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const events: BackfillEvent[] = [];
  for (const state of states) {
    const repository = repositories.get(state.repositoryId);
    const branch = branchOf(state.ref);
    if (!repository || !branch) continue;
    report.checked += 1;
    try {
      const source = {
        id: repository.repositoryId,
        fullName: repository.fullName,
        defaultBranch: repository.defaultBranch,
        private: repository.private,
        archived: repository.archived,
        htmlUrl: repository.htmlUrl,
      };
      const installationId = repository.installationId ?? undefined;
      const head = await deps.source.head(source, branch, installationId);
      if (head?.sha === state.commitSha && state.status === 'ready') continue;
      report.drifted.push({ repository: repository.fullName, ref: state.ref, indexed: state.commitSha, head: head?.sha ?? null });
      events.push({
        kind: 'backfill',
        eventId: `reconcile:${repository.repositoryId}:${state.ref}:${head?.sha ?? 'gone'}`,
        repository: { id: repository.repositoryId, fullName: repository.fullName, defaultBranch: repository.defaultBranch },
        receivedAt: deps.now().toISOString(),
        ref: state.ref,
        reason: 'reconciler',
        ...(installationId ? { installationId } : {}),
      });
    } catch (error) {
      report.failed.push({ repository: repository.fullName, error: error instanceof Error ? error.message : String(error) });
    }
  }
  await deps.publisher.publish(events.map((event) => ({ event })));
  return report;
}

type IndexedRepository = NonNullable<Awaited<ReturnType<IndexReads['getRepository']>>>;

/**
 * Re-reads a repository's metadata from GitHub and writes what changed. A repository made
 * private whose webhook was lost is hidden from callers who may not read it by this write,
 * within one reconcile interval. A repository GitHub no longer shows is treated as private,
 * never deleted here (see docs/security.md).
 */
async function refreshMetadata(deps: ReconcileDeps, repository: IndexedRepository): Promise<MetadataChange | null> {
  const current = await deps.source.repository(repository.repositoryId, repository.installationId ?? undefined);
  if (!current) {
    // GitHub no longer shows it to gitdex (made private without access, or deleted): hide it
    // from callers who may only read public repositories; deleting waits for confirmation.
    if (repository.private) return null;
    await deps.index.putRepository({ ...repository, private: true });
    return { repository: repository.fullName, changed: ['private'] };
  }
  const changed: MetadataChange['changed'] = [];
  if (current.private !== repository.private) changed.push('private');
  if (current.archived !== repository.archived) changed.push('archived');
  if (current.fullName !== repository.fullName) changed.push('fullName');
  if (current.defaultBranch !== repository.defaultBranch) changed.push('defaultBranch');
  if (changed.length === 0) return null;
  await deps.index.putRepository({ ...repository, private: current.private, archived: current.archived, fullName: current.fullName, defaultBranch: current.defaultBranch, htmlUrl: current.htmlUrl });
  return { repository: current.fullName, changed };
}
