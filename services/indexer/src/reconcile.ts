import type { BackfillEvent } from '@gitdex/contracts';
import type { EventPublisher, IndexStore, Source } from '@gitdex/ports';
import { branchOf } from './ref-selection';

export interface ReconcileDeps {
  index: IndexStore;
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

export interface ReconcileReport {
  checked: number;
  drifted: Drift[];
  failed: { repository: string; error: string }[];
}

/**
 * Compares every indexed ref with GitHub's current head and queues a backfill for each
 * one that drifted, so a missed or failed webhook heals by itself. It only queues:
 * the indexer does the work, in order with the repository's other events.
 */
export async function reconcile(deps: ReconcileDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, drifted: [], failed: [] };
  const states = await deps.index.listRefStates();
  const repositories = new Map((await deps.index.listRepositories()).map((r) => [r.repositoryId, r]));
  const events: BackfillEvent[] = [];
  for (const state of states) {
    const repository = repositories.get(state.repositoryId);
    const branch = branchOf(state.ref);
    if (!repository || !branch) continue;
    report.checked += 1;
    try {
      const source = { id: repository.repositoryId, fullName: repository.fullName, defaultBranch: repository.defaultBranch, private: repository.private, archived: repository.archived, htmlUrl: repository.htmlUrl };
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
