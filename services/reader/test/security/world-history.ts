/**
 * History for the security world: each indexed ref's commit recorded as a commit that added its
 * files, so compare and blame run their whole path (and can leak) for every repository, private
 * ones included.
 */
import type { IndexStore } from '@gitdex/ports';
import { SqliteHistory } from '@gitdex/sqlite';
import { snapshotOf } from '../../src/snapshot-of';

export async function recordWorldHistory(index: IndexStore): Promise<SqliteHistory> {
  const history = new SqliteHistory({ file: ':memory:' });
  await history.ensureHistoryReady();
  const person = { name: 'Ada', email: 'ada@example.com', date: '2026-01-01T00:00:00Z' };
  for (const repository of await index.listRepositories()) {
    for (const state of await index.listRefStates(repository.repositoryId)) {
      if (!state.commitSha) continue;
      const entries = await index.visibleEntries(snapshotOf(state), null, 10_000);
      await history.putCommits(repository.repositoryId, [
        {
          sha: state.commitSha,
          parents: [],
          author: person,
          committer: person,
          message: `${repository.fullName} at ${state.ref}`,
          files: entries.map((e) => ({ path: e.path, previousPath: null, status: 'added' as const, additions: 0, deletions: 0, blobBefore: null, blobAfter: e.blobSha })),
          filesComplete: true,
        },
      ]);
      await history.putRefHistory({ repositoryId: repository.repositoryId, ref: state.ref, head: state.commitSha, commits: [state.commitSha] });
    }
  }
  return history;
}
