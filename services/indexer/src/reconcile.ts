import type { GitdexEvent } from '@gitdex/contracts';
import type { EventPublisher, IndexReads, IndexWrites, Source } from '@gitdex/ports';
import type { RefDropDeps } from './history/drop';
import { reconcilePulls } from './reconcile-pulls';
import type { PullOptions } from './pull-requests';
import { branchOf } from './ref-selection';
import { messageOf, refreshVisibility, stopsThePass, type InstallationMembership, type MetadataChange } from './reconcile-visibility';

export type { MetadataChange } from './reconcile-visibility';

export interface ReconcileDeps {
  index: IndexReads & IndexWrites;
  source: Source;
  publisher: EventPublisher;
  now: () => Date;
  /** Given: open pull requests are compared with GitHub's list too (one request per repository), closed ones past the retention dropped. */
  pulls?: PullOptions;
  /** Given: a closed pull request's ref goes with its history. */
  history?: RefDropDeps['history'];
  /** False once this process lost the reconciler lease: the pass stops where it is. */
  stillHeld?: () => boolean;
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
  /** Metadata re-read from GitHub and applied at once (visibility never waits for a push). */
  metadata: MetadataChange[];
  failed: { repository: string; error: string }[];
  /** Pull requests whose served head differs from GitHub's open list (queued), and closed refs dropped. */
  pulls?: { queued: number; retired: number; lists: number };
  /**
   * GitHub requests spent: repository lists (and the pages they took), single repository reads
   * (for those no list showed) and branch heads; notModified of the heads were 304s, which
   * GitHub does not count.
   */
  requests: { lists: number; listPages: number; repositories: number; heads: number; notModified: number };
  /** Repositories an installation shows that the index lacked (queued for a backfill) or no longer shows (queued for a confirmed purge). */
  membership: { added: string[]; removed: string[] };
  /** Set when GitHub's rate limit stopped the pass; what was not checked waits for the next one. */
  rateLimited?: string;
  /** Set when another process held the reconciler lease (nothing was checked here), or took it during the pass. */
  heldBy?: string;
}

/**
 * Refreshes every indexed repository's metadata first (visibility decides who may read, so it
 * comes before anything else and from GitHub's repository lists, a few requests for hundreds of
 * repositories), then compares every indexed ref with GitHub's current head and queues a
 * backfill for each one that drifted, so a missed or failed webhook heals by itself. It only
 * queues: the indexer does the work, in order with the repository's other events.
 */
export async function reconcile(deps: ReconcileDeps): Promise<ReconcileReport> {
  const notModifiedBefore = deps.source.notModifiedAnswers?.() ?? 0;
  const listed = await deps.index.listRepositories();
  const visibility = await refreshVisibility(deps.index, deps.source, listed);
  const report: ReconcileReport = {
    checked: 0,
    drifted: [],
    metadata: visibility.metadata,
    failed: visibility.failed,
    requests: { lists: visibility.lists, listPages: visibility.listPages, repositories: visibility.singleReads, heads: 0, notModified: 0 },
    membership: { added: [], removed: [] },
    ...(visibility.rateLimited ? { rateLimited: visibility.rateLimited } : {}),
  };
  if (report.rateLimited) return report;
  await deps.publisher.publish(membershipEvents(visibility.membership, report, deps.now()).map((event) => ({ event })));
  // Written changes (a rename, a new default branch) are what the backfills below must name.
  const current = report.metadata.length > 0 ? await deps.index.listRepositories() : listed;
  const repositories = new Map(current.map((r) => [r.repositoryId, r]));
  const states = await deps.index.listRefStates();
  const events: GitdexEvent[] = [];
  for (const state of states) {
    const repository = repositories.get(state.repositoryId);
    const branch = branchOf(state.ref);
    if (!repository || !branch) continue;
    if (deps.stillHeld && !deps.stillHeld()) {
      report.heldBy = 'another process (this one lost the reconciler lease during the pass)';
      break;
    }
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
      report.requests.heads += 1;
      const head = await deps.source.head(source, branch, installationId);
      if (head?.sha === state.commitSha && state.status === 'ready') continue;
      report.drifted.push({ repository: repository.fullName, ref: state.ref, indexed: state.commitSha, head: head?.sha ?? null });
      events.push({
        kind: 'backfill' as const,
        eventId: `reconcile:${repository.repositoryId}:${state.ref}:${head?.sha ?? 'gone'}`,
        repository: { id: repository.repositoryId, fullName: repository.fullName, defaultBranch: repository.defaultBranch },
        receivedAt: deps.now().toISOString(),
        ref: state.ref,
        reason: 'reconciler',
        ...(installationId ? { installationId } : {}),
      });
    } catch (error) {
      if (stopsThePass(error)) {
        report.rateLimited = messageOf(error);
        break;
      }
      report.failed.push({ repository: repository.fullName, error: messageOf(error) });
    }
  }
  if (deps.pulls && !report.rateLimited) {
    const pulls = await reconcilePulls({ ...deps, pulls: deps.pulls }, current, states, report);
    events.push(...pulls);
  }
  // What drifted before the rate limit stopped the pass is still queued.
  await deps.publisher.publish(events.map((event) => ({ event })));
  report.requests.notModified = (deps.source.notModifiedAnswers?.() ?? 0) - notModifiedBefore;
  return report;
}

/**
 * Backfills for repositories an installation shows that the index lacks, and purges for
 * indexed ones it no longer shows. A purge names installation_removed: the indexer deletes
 * only after GitHub, asked with the installation's token, confirms the repository is gone.
 */
function membershipEvents(membership: InstallationMembership[], report: ReconcileReport, now: Date): GitdexEvent[] {
  const events: GitdexEvent[] = [];
  for (const { installationId, added, missing } of membership) {
    for (const repository of added) {
      report.membership.added.push(repository.fullName);
      events.push({
        kind: 'backfill',
        eventId: `reconcile:added:${installationId}:${repository.id}`,
        repository: { id: repository.id, fullName: repository.fullName, defaultBranch: repository.defaultBranch, private: repository.private, htmlUrl: repository.htmlUrl },
        receivedAt: now.toISOString(),
        reason: 'reconciler',
        installationId,
      });
    }
    for (const repository of missing) {
      report.membership.removed.push(repository.fullName);
      events.push({
        kind: 'purge',
        eventId: `reconcile:removed:${installationId}:${repository.repositoryId}`,
        repository: { id: repository.repositoryId, fullName: repository.fullName, defaultBranch: repository.defaultBranch },
        receivedAt: now.toISOString(),
        reason: 'installation_removed',
        installationId,
      });
    }
  }
  return events;
}

/** Whether a pass reached every repository and ref: a failed read or a rate limit leaves some unchecked. */
export function passComplete(report: ReconcileReport): boolean {
  return report.failed.length === 0 && !report.rateLimited;
}

/** One line saying why a pass did not complete, for logs, /readyz and `gitdex status`. */
export function passProblem(report: ReconcileReport): string | null {
  if (report.rateLimited) return `GitHub's rate limit stopped the pass: ${report.rateLimited}`;
  const [first] = report.failed;
  if (!first) return null;
  return `${report.failed.length} ${report.failed.length === 1 ? 'read' : 'reads'} failed, first ${first.repository}: ${first.error}`;
}
