/** Conformance cases: repositories, ref states, and deleting refs and repositories. */
import { MAIN, makeFile, makeRefState, makeRepository, put } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

export function describeCatalogCases(ctx: ConformanceContext): void {
  describe('repositories', () => {
    it('puts, gets, upserts and finds by full name case-insensitively', async () => {
      const store = ctx.store();
      const id = ctx.repositoryId();
      const repository = makeRepository(id, `Octo-${id}/Hello-World`);
      expect(await store.getRepository(id)).toBeNull();
      await store.putRepository(repository);
      expect(await store.getRepository(id)).toEqual(repository);
      expect(await store.findRepositoryByName(`octo-${id}/hello-world`)).toEqual(repository);
      expect(await store.findRepositoryByName(`OCTO-${id}/HELLO-WORLD`)).toEqual(repository);
      expect(await store.findRepositoryByName(`octo-${id}/other`)).toBeNull();

      const renamed = makeRepository(id, `Octo-${id}/Renamed`, { defaultBranch: 'trunk', backfillRequestedAt: '2025-02-03T04:05:06.000Z' });
      await store.putRepository(renamed);
      expect(await store.getRepository(id)).toEqual(renamed);
      expect(await store.findRepositoryByName(`octo-${id}/renamed`)).toEqual(renamed);
      expect(await store.findRepositoryByName(`octo-${id}/hello-world`)).toBeNull();
    });

    it('lists every repository sorted by lower-cased full name', async () => {
      const store = ctx.store();
      const [a, b, c] = [ctx.repositoryId(), ctx.repositoryId(), ctx.repositoryId()];
      const tag = `list-${a}`;
      const repositories = [makeRepository(a, `${tag}/Zeta`), makeRepository(b, `${tag}/alpha`), makeRepository(c, `${tag.toUpperCase()}/Beta`)];
      for (const repository of repositories) await store.putRepository(repository);
      const ours = (await store.listRepositories()).filter((repository) => [a, b, c].includes(repository.repositoryId));
      expect(ours.map((repository) => repository.fullName)).toEqual([`${tag}/alpha`, `${tag.toUpperCase()}/Beta`, `${tag}/Zeta`]);
    });

    it('deleteRepository removes the repository, its ref states and every file of every ref', async () => {
      const store = ctx.store();
      const id = ctx.repositoryId();
      const other = ctx.repositoryId();
      await store.putRepository(makeRepository(id, `gone-${id}/repo`));
      await store.putRepository(makeRepository(other, `kept-${other}/repo`));
      await store.putRefState(makeRefState(id, MAIN));
      await store.putRefState(makeRefState(id, 'refs/heads/dev'));
      await store.putRefState(makeRefState(other, MAIN));
      await ctx.write([
        put(makeFile({ repositoryId: id, path: 'a.ts' })),
        put(makeFile({ repositoryId: id, path: 'b/c.ts', ref: 'refs/heads/dev' })),
        put(makeFile({ repositoryId: other, path: 'a.ts' })),
      ]);

      await store.deleteRepository(id);
      await store.refresh();

      expect(await store.getRepository(id)).toBeNull();
      expect(await store.findRepositoryByName(`gone-${id}/repo`)).toBeNull();
      expect(await store.listRefStates(id)).toEqual([]);
      expect(await store.getRefState(id, MAIN)).toBeNull();
      expect(await store.visibleEntries({ repositoryId: id, ref: MAIN, generation: 9 }, null, 100)).toEqual([]);
      expect(await store.visibleEntries({ repositoryId: id, ref: 'refs/heads/dev', generation: 9 }, null, 100)).toEqual([]);
      expect((await store.stats({ repositoryId: id, ref: 'refs/heads/dev', generation: 9 })).fileCount).toBe(0);

      expect(await store.getRepository(other)).not.toBeNull();
      expect(await store.getRefState(other, MAIN)).not.toBeNull();
      expect((await store.visibleEntries({ repositoryId: other, ref: MAIN, generation: 1 }, null, 10)).map((e) => e.path)).toEqual(['a.ts']);
      await store.deleteRepository(ctx.repositoryId()); // unknown: nothing to do, no error
    });
  });

  describe('ref states', () => {
    it('puts, upserts by (repository, ref), gets and lists, visible at once', async () => {
      const store = ctx.store();
      const id = ctx.repositoryId();
      const other = ctx.repositoryId();
      expect(await store.getRefState(id, MAIN)).toBeNull();
      const main = makeRefState(id, MAIN);
      const dev = makeRefState(id, 'refs/heads/dev', { commitSha: null, treeSha: null, generation: 0, indexedAt: null, status: 'indexing' });
      const feature = makeRefState(id, 'refs/heads/féature/ü', { status: 'failed', lastError: 'boom', attempts: 3 });
      const elsewhere = makeRefState(other, MAIN);
      for (const state of [main, dev, feature, elsewhere]) await store.putRefState(state);

      expect(await store.getRefState(id, MAIN)).toEqual(main);
      expect(await store.getRefState(id, 'refs/heads/féature/ü')).toEqual(feature);
      expect(await store.listRefStates(id)).toEqual([dev, feature, main]);

      const flipped = { ...main, generation: 2, commitSha: 'd'.repeat(40), fileCount: 12, pendingCommitSha: 'e'.repeat(40), pendingSince: '2025-01-02T03:04:06.000Z' };
      await store.putRefState(flipped);
      expect(await store.getRefState(id, MAIN)).toEqual(flipped);
      expect(await store.listRefStates(id)).toEqual([dev, feature, flipped]);

      const all = (await store.listRefStates()).filter((state) => state.repositoryId === id || state.repositoryId === other);
      expect(all).toEqual([dev, feature, flipped, elsewhere]);
    });

    it('deleteRef removes the state and every file of that ref only', async () => {
      const store = ctx.store();
      const id = ctx.repositoryId();
      await store.putRefState(makeRefState(id, MAIN));
      await store.putRefState(makeRefState(id, 'refs/heads/dev'));
      await ctx.write([
        put(makeFile({ repositoryId: id, path: 'src/a.ts' })),
        put(makeFile({ repositoryId: id, path: 'src/b.ts', fromGeneration: 2, retiredAtGeneration: 3 })),
        put(makeFile({ repositoryId: id, path: 'src/a.ts', ref: 'refs/heads/dev' })),
      ]);
      await store.deleteRef(id, MAIN);
      await store.refresh();
      expect(await store.getRefState(id, MAIN)).toBeNull();
      expect(await store.visibleEntries({ repositoryId: id, ref: MAIN, generation: 2 }, null, 10)).toEqual([]);
      expect(await store.findRetired({ repositoryId: id, ref: MAIN, generation: 5 }, 'src/b.ts')).toBeNull();
      expect(await store.getRefState(id, 'refs/heads/dev')).not.toBeNull();
      expect(await store.getFile({ repositoryId: id, ref: 'refs/heads/dev', generation: 1 }, 'src/a.ts')).not.toBeNull();
      await store.deleteRef(id, 'refs/heads/never'); // unknown: nothing to do, no error
    });
  });
}
