import type { FileDocument } from '@gitdex/contracts';
import { SqliteIndexStore } from '@gitdex/sqlite';
import { withReadCache } from '../../src/read-cache';

describe('withReadCache', () => {
  it('asks the index once for a file version at a generation, and again for another generation', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    const calls: string[] = [];
    const spy = jest.spyOn(index, 'getFile').mockImplementation(async (snapshot, path) => {
      calls.push(`${snapshot.generation}:${path}`);
      return null as FileDocument | null;
    });
    const cached = withReadCache(index);
    const snapshot = { repositoryId: 1, ref: 'refs/heads/main', generation: 3 };
    await cached.getFile(snapshot, 'a.ts');
    await cached.getFile(snapshot, 'a.ts');
    await cached.getFile({ ...snapshot, generation: 4 }, 'a.ts');
    expect(calls).toEqual(['3:a.ts', '4:a.ts']);
    spy.mockRestore();
  });

  it('reuses ref states only for the moment it is told, then sees the flip', async () => {
    const index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    const cached = withReadCache(index, { metadataTtlMs: 50 });
    expect(await cached.listRefStates(1)).toEqual([]);
    await index.putRefState({
      repositoryId: 1, ref: 'refs/heads/main', commitSha: 'a'.repeat(40), treeSha: 'b'.repeat(40), generation: 1, indexedAt: new Date().toISOString(),
      committedAt: null, fileCount: 0, status: 'ready', lastError: null, attempts: 0, pendingCommitSha: null, pendingSince: null, sourceReceivedAt: null,
    });
    expect(await cached.listRefStates(1)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cached.listRefStates(1)).toHaveLength(1);
    // Everything not cached goes straight through.
    expect(await cached.getRefState(1, 'refs/heads/main')).toMatchObject({ generation: 1 });
    expect(await cached.ping()).toBe(true);
  });
});
