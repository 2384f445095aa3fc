/**
 * One conformance suite for every IndexStore adapter: the same cases, the same
 * assertions, against the real engine. Expectations come from the reference model in
 * index-store.fixtures.ts, so two adapters that pass agree with each other exactly.
 *
 * The store is created once per suite; every case works in repositories of its own
 * (fresh ids), so cases stay independent without re-creating indices.
 */
import type { FileWrite, IndexStore } from '@gitdex/ports';
import { describeCatalogCases } from './index-store.cases-catalog';
import { describeContentCases } from './index-store.cases-content';
import { describeGenerationCases } from './index-store.cases-generations';
import { describeListingCases } from './index-store.cases-listings';
import { describeLookupCases } from './index-store.cases-lookups';
import { describeByteCases } from './index-store.cases-bytes';
import { describeReadLookupCases } from './index-store.cases-read-lookup';
import { describeUnderlayCases } from './index-store.cases-underlay';
import { describeBlobCases } from './index-store.cases-blobs';
import { describeSymbolCases } from './index-store.cases-symbols';

export interface ConformanceContext {
  store(): IndexStore;
  /** A repository id no other case uses. */
  repositoryId(): number;
  /** Writes and makes the writes searchable, as the indexer does before a flip. */
  write(writes: FileWrite[]): Promise<void>;
}

export function describeIndexStoreConformance(name: string, makeStore: () => Promise<IndexStore>, cleanup?: (store: IndexStore) => Promise<void>): void {
  describe(`IndexStore conformance: ${name}`, () => {
    let store: IndexStore | undefined;
    // Random base: a re-run against a kept engine never meets old documents.
    let nextRepositoryId = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

    const ctx: ConformanceContext = {
      store: () => {
        if (!store) throw new Error('store not created');
        return store;
      },
      repositoryId: () => (nextRepositoryId += 1),
      write: async (writes) => {
        await ctx.store().writeFiles(writes);
        await ctx.store().refresh();
      },
    };

    beforeAll(async () => {
      store = await makeStore();
      await store.ensureReady();
    });

    afterAll(async () => {
      if (!store) return;
      try {
        if (cleanup) await cleanup(store);
      } finally {
        await store.close();
      }
    });

    it('ensureReady can be called again, also concurrently, and ping answers', async () => {
      await Promise.all([ctx.store().ensureReady(), ctx.store().ensureReady(), ctx.store().ensureReady()]);
      expect(await ctx.store().ping()).toBe(true);
      await expect(ctx.store().refresh()).resolves.toBeUndefined();
    });

    describeCatalogCases(ctx);
    describeGenerationCases(ctx);
    describeListingCases(ctx);
    describeLookupCases(ctx);
    describeContentCases(ctx);
    describeByteCases(ctx);
    describeReadLookupCases(ctx);
    describeUnderlayCases(ctx);
    describeBlobCases(ctx);
    describeSymbolCases(ctx);
  });
}
