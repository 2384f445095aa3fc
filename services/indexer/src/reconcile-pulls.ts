import type { GitdexEvent, RefState, RepositoryDocument } from '@gitdex/contracts';
import type { EventPublisher, IndexReads, IndexWrites, Source, SourceRepository } from '@gitdex/ports';
import type { RefDropDeps } from './history/drop';
import { pullEvent, pullNumberOf, pullRefOf, retireClosedPulls, type PullOptions } from './pull-requests';
import { messageOf, stopsThePass } from './reconcile-visibility';

/** The parts of the pass's report this part fills in. */
interface PullPassReport {
  failed: { repository: string; error: string }[];
  rateLimited?: string;
  pulls?: { queued: number; retired: number; lists: number };
}

interface PullReconcileDeps {
  index: IndexReads & IndexWrites;
  history?: RefDropDeps['history'];
  source: Source;
  publisher: EventPublisher;
  now: () => Date;
  pulls: PullOptions;
}

/**
 * Heals missed `pull_request` deliveries like missed pushes: GitHub's open pull requests
 * (GET /repos/{o}/{r}/pulls?state=open, every page) are compared with the pull request refs
 * served; a head not served queues its pull request, and a ref whose pull request GitHub no
 * longer lists as open queues a `closed` (the indexer asks GitHub what became of it). Closed
 * refs past the retention are dropped here, so they go even when the repository is quiet.
 */
export async function reconcilePulls(deps: PullReconcileDeps, repositories: RepositoryDocument[], states: RefState[], report: PullPassReport): Promise<GitdexEvent[]> {
  const counts = { queued: 0, retired: 0, lists: 0 };
  report.pulls = counts;
  const events: GitdexEvent[] = [];
  const receivedAt = deps.now().toISOString();
  for (const document of repositories) {
    const mine = states.filter((s) => s.repositoryId === document.repositoryId && pullNumberOf(s.ref) !== null);
    try {
      const retired = await retireClosedPulls(deps, document.repositoryId, deps.pulls, deps.now(), mine);
      counts.retired += retired.length;
      if (deps.pulls.indexed === 'off' || !deps.source.openPulls) continue;
      const repository: SourceRepository = {
        id: document.repositoryId,
        fullName: document.fullName,
        defaultBranch: document.defaultBranch,
        private: document.private,
        archived: document.archived,
        htmlUrl: document.htmlUrl,
      };
      const installationId = document.installationId ?? undefined;
      counts.lists += 1;
      const open = await deps.source.openPulls(repository, installationId);
      const served = new Map(mine.filter((s) => !retired.includes(s.ref)).map((s) => [s.ref, s]));
      for (const pull of open) {
        const state = served.get(pullRefOf(pull.number));
        if (state && state.commitSha === pull.headSha && state.status === 'ready' && state.pull?.state === 'open') continue;
        events.push(pullEvent(repository, installationId, pull, state ? 'synchronize' : 'opened', receivedAt));
      }
      const listed = new Set(open.map((pull) => pullRefOf(pull.number)));
      for (const [ref, state] of served) {
        if (listed.has(ref) || state.pull?.state === 'closed') continue;
        const number = pullNumberOf(ref)!;
        const pull = state.pull ?? {
          number,
          title: '',
          state: 'open' as const,
          merged: false,
          draft: false,
          author: null,
          baseRef: document.defaultBranch,
          headSha: state.commitSha ?? '0'.repeat(40),
          updatedAt: receivedAt,
          closedAt: null,
        };
        events.push(pullEvent(repository, installationId, { ...pull, state: 'closed', closedAt: receivedAt }, 'closed', receivedAt));
      }
    } catch (error) {
      if (stopsThePass(error)) {
        report.rateLimited = messageOf(error);
        break;
      }
      report.failed.push({ repository: document.fullName, error: messageOf(error) });
    }
  }
  counts.queued = events.length;
  return events;
}
