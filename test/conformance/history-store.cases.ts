/**
 * One conformance suite for every HistoryStore adapter, on the real engine: commits stored once
 * per repository, a ref's held history replaced whole, old blobs by sha, and pruning that keeps
 * exactly what some ref's history still names. Each case works in repositories of its own.
 */
import type { CommitRecord, HistoryStore } from '@gitdex/ports';

export function commitRecord(sha: string, parents: string[], files: CommitRecord['files'] = [], seconds = 0): CommitRecord {
  const date = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
  return {
    sha,
    parents,
    author: { name: 'Ada', email: 'ada@example.com', date },
    committer: { name: 'Bob', email: 'bob@example.com', date },
    message: `commit ${sha}\n\nbody`,
    files,
    filesComplete: true,
  };
}

const sha = (n: number): string => n.toString(16).padStart(40, '0');
const blob = (n: number): string => `b${n.toString(16).padStart(39, '0')}`;

export function describeHistoryStoreConformance(name: string, makeStore: () => Promise<HistoryStore & { close(): unknown }>): void {
  describe(`HistoryStore conformance: ${name}`, () => {
    let store: (HistoryStore & { close(): unknown }) | undefined;
    let nextRepositoryId = 2_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
    const s = (): HistoryStore => {
      if (!store) throw new Error('store not created');
      return store;
    };

    beforeAll(async () => {
      store = await makeStore();
      await store.ensureHistoryReady();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('stores commits once, reads them by sha and leaves out the missing ones; records are read back as written', async () => {
      const repo = (nextRepositoryId += 1);
      const other = (nextRepositoryId += 1);
      const files: CommitRecord['files'] = [
        { path: 'a.ts', previousPath: null, status: 'added', additions: 3, deletions: 0, blobBefore: null, blobAfter: blob(1) },
        { path: 'c/d.ts', previousPath: 'b.ts', status: 'renamed', additions: 1, deletions: 1, blobBefore: blob(2), blobAfter: blob(3) },
      ];
      const first = commitRecord(sha(1), [], files, 1);
      const second = { ...commitRecord(sha(2), [sha(1)], [], 2), message: 'ünïcode ✓\n\nmessage' };
      await s().putCommits(repo, [first, second]);
      // A second put of the same sha changes nothing (its record is its content).
      await s().putCommits(repo, [{ ...first, message: 'other' }]);
      const read = await s().getCommits(repo, [sha(2), sha(1), sha(9), sha(1)]);
      expect(read.sort((a, b) => a.sha.localeCompare(b.sha))).toEqual([first, second]);
      // Another repository sees none of them.
      expect(await s().getCommits(other, [sha(1)])).toEqual([]);
      expect(await s().getCommits(repo, [])).toEqual([]);
    });

    it('replaces a ref history whole and drops it; prune keeps what any ref holds and the blobs those commits name', async () => {
      const repo = (nextRepositoryId += 1);
      const change = (n: number, before: number | null): CommitRecord['files'] => [
        {
          path: 'f',
          previousPath: null,
          status: before === null ? 'added' : 'modified',
          additions: 1,
          deletions: before === null ? 0 : 1,
          blobBefore: before === null ? null : blob(before),
          blobAfter: blob(n),
        },
      ];
      await s().putCommits(repo, [
        commitRecord(sha(1), [], change(1, null)),
        commitRecord(sha(2), [sha(1)], change(2, 1)),
        commitRecord(sha(3), [sha(2)], change(3, 2)),
        commitRecord(sha(4), [sha(2)], change(4, 2)),
      ]);
      await s().putHistoryBlobs(
        repo,
        [1, 2, 3, 4, 9].map((n) => ({ sha: blob(n), content: Buffer.from(`v${n}\n\u0000bytes`) })),
      );
      expect(await s().getRefHistory(repo, 'refs/heads/main')).toBeNull();
      await s().putRefHistory({ repositoryId: repo, ref: 'refs/heads/main', head: sha(3), commits: [sha(3), sha(2), sha(1)] });
      await s().putRefHistory({ repositoryId: repo, ref: 'refs/heads/topic', head: sha(4), commits: [sha(4), sha(2)] });
      expect(await s().getRefHistory(repo, 'refs/heads/topic')).toEqual({ repositoryId: repo, ref: 'refs/heads/topic', head: sha(4), commits: [sha(4), sha(2)] });
      expect(await s().missingHistoryBlobs(repo, [blob(1), blob(5), blob(1)])).toEqual([blob(5)]);

      // Nothing unheld but blob 9: prune drops only that.
      await s().pruneCommits(repo);
      expect((await s().getCommits(repo, [1, 2, 3, 4].map(sha))).length).toBe(4);
      expect([...(await s().readHistoryBlobs(repo, [1, 2, 3, 4, 9].map(blob))).keys()].sort()).toEqual([1, 2, 3, 4].map(blob));
      expect((await s().readHistoryBlobs(repo, [blob(1)])).get(blob(1))).toEqual(Buffer.from('v1\n\u0000bytes'));

      // A force push rewrites main to 4's line; topic is deleted: 3 and the blob only it named go.
      await s().putRefHistory({ repositoryId: repo, ref: 'refs/heads/main', head: sha(4), commits: [sha(4), sha(2), sha(1)] });
      await s().deleteRefHistory(repo, 'refs/heads/topic');
      await s().deleteRefHistory(repo, 'refs/heads/never');
      await s().pruneCommits(repo);
      expect(await s().getRefHistory(repo, 'refs/heads/topic')).toBeNull();
      expect((await s().getCommits(repo, [1, 2, 3, 4].map(sha))).map((c) => c.sha).sort()).toEqual([1, 2, 4].map(sha));
      expect([...(await s().readHistoryBlobs(repo, [1, 2, 3, 4].map(blob))).keys()].sort()).toEqual([1, 2, 4].map(blob));

      await s().deleteHistory(repo);
      expect(await s().getRefHistory(repo, 'refs/heads/main')).toBeNull();
      expect(await s().getCommits(repo, [sha(1)])).toEqual([]);
      expect((await s().readHistoryBlobs(repo, [blob(1)])).size).toBe(0);
    });

    it('stores version blames by (held key, path), reads them back by key, and drops them with their commit or repository', async () => {
      const repo = (nextRepositoryId += 1);
      const other = (nextRepositoryId += 1);
      await s().putCommits(repo, [commitRecord(sha(1), []), commitRecord(sha(2), [sha(1)]), commitRecord(sha(3), [sha(1)])]);
      await s().putRefHistory({ repositoryId: repo, ref: 'refs/heads/main', head: sha(2), commits: [sha(2), sha(1)] });
      await s().putRefHistory({ repositoryId: repo, ref: 'refs/heads/gone', head: sha(3), commits: [sha(3), sha(1)] });
      const long = `${'dir/'.repeat(150)}ünï.ts`;
      const blameOf = (commit: number, path: string, key = `k${commit}`) => ({
        key,
        path,
        commit: sha(commit),
        blame: { owners: [[sha(1), 'old.ts', 1] as [string, string, 0 | 1], [sha(commit), path, 0] as [string, string, 0 | 1]], runs: [0, 0, 3, 1, 3, 2] },
      });
      const whole = { key: 'k1', path: 'a.ts', commit: sha(1), blame: { owners: [[sha(1), 'a.ts', 1] as [string, string, 0 | 1]], runs: null } };
      await s().putVersionBlames(repo, [blameOf(2, 'a.ts'), blameOf(2, long), blameOf(3, 'a.ts'), whole]);
      // A key names the same blame forever: a second write changes nothing.
      await s().putVersionBlames(repo, [{ ...blameOf(2, 'a.ts'), blame: { owners: [], runs: [] } }]);
      const read = async (repository: number, wanted: { key: string; path: string }[]) =>
        (await s().getVersionBlames(repository, wanted)).sort((a, b) => `${a.key}${a.path}`.localeCompare(`${b.key}${b.path}`));
      expect(
        await read(repo, [
          { key: 'k2', path: 'a.ts' },
          { key: 'k2', path: long },
          { key: 'k2', path: 'b.ts' },
          { key: 'k1', path: 'a.ts' },
        ]),
      ).toEqual([whole, blameOf(2, 'a.ts'), blameOf(2, long)]);
      expect(await s().getVersionBlames(other, [{ key: 'k2', path: 'a.ts' }])).toEqual([]);

      // The branch holding 3 is deleted: its blame goes with it; the others stay.
      await s().deleteRefHistory(repo, 'refs/heads/gone');
      await s().pruneCommits(repo);
      expect(
        await read(repo, [
          { key: 'k3', path: 'a.ts' },
          { key: 'k2', path: 'a.ts' },
          { key: 'k1', path: 'a.ts' },
        ]),
      ).toEqual([whole, blameOf(2, 'a.ts')]);

      await s().deleteHistory(repo);
      expect(
        await s().getVersionBlames(repo, [
          { key: 'k2', path: 'a.ts' },
          { key: 'k1', path: 'a.ts' },
        ]),
      ).toEqual([]);
    });
  });
}
