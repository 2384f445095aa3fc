import type { RefState, RepositoryDocument } from '@gitdex/contracts';
import type { SourceRepository } from '@gitdex/ports';

/** Where an installation's repositories stand in the index: "287 of 300 indexed". */
export interface InstallationProgress {
  installationId: number;
  account: string;
  /** Repositories the installation can see on GitHub. */
  expected: number;
  /** Of those, indexed: the default branch is ready. */
  indexed: number;
  /** Of those, the default branch failed (see `gitdex status` and the dead letters). */
  failed: number;
  /** The rest: queued or being indexed (an empty repository, with no branch, stays here). */
  queued: number;
  failedRepositories: string[];
}

/** Compares an installation's repository list with the index's repositories and ref states. */
export function installationProgress(
  installation: { id: number; account: string },
  expected: readonly SourceRepository[],
  repositories: readonly RepositoryDocument[],
  states: readonly RefState[],
): InstallationProgress {
  const known = new Map(repositories.map((r) => [r.repositoryId, r]));
  const byRef = new Map(states.map((s) => [`${s.repositoryId} ${s.ref}`, s]));
  let indexed = 0;
  const failedRepositories: string[] = [];
  for (const repository of expected) {
    const branch = known.get(repository.id)?.defaultBranch ?? repository.defaultBranch;
    const state = byRef.get(`${repository.id} refs/heads/${branch}`);
    if (state?.status === 'ready' && state.commitSha) indexed += 1;
    else if (state?.status === 'failed') failedRepositories.push(repository.fullName);
  }
  const failed = failedRepositories.length;
  return { installationId: installation.id, account: installation.account, expected: expected.length, indexed, failed, queued: expected.length - indexed - failed, failedRepositories };
}

export function progressLine(p: InstallationProgress): string {
  return `installation ${p.installationId} (${p.account}): ${p.indexed} of ${p.expected} indexed, ${p.queued} queued, ${p.failed} failed`;
}
