/**
 * Conformance cases: a ref stored as changes against another ref's generation (a pull request
 * layered on its base branch, Snapshot.underlay). Every read sees the layered ref's own versions
 * plus the underlay's versions of the paths it does not shadow, pinned to the underlay's generation.
 */
import type { FileDocument } from '@gitdex/contracts';
import type { FolderScope, Snapshot } from '@gitdex/ports';
import { expectedFiles, expectedFolders, expectedSuggestions, MAIN, makeFile, put, retire, retired, suggestQuery, visible } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

const PULL = 'refs/pull/7/head';

/**
 * main gen 1: a.ts, b.ts, src/c.ts, src/d.ts, docs/e.md. The pull request (gen 1) changes b.ts,
 * adds src/f.ts and deletes src/d.ts. main gen 2 then changes a.ts and deletes docs/e.md:
 * the pull request, pinned to main's gen 1, still sees the old ones.
 */
function layered(repositoryId: number) {
  const file = (path: string, content: string, ref = MAIN, fromGeneration = 1) => makeFile({ repositoryId, ref, path, content, fromGeneration });
  const a1 = file('a.ts', 'export const a = 1;\n');
  const b = file('b.ts', 'export const b = "base";\n');
  const c = file('src/c.ts', 'export const c = "needle";\n');
  const d = file('src/d.ts', 'export const d = "needle";\n');
  const e = file('docs/e.md', '# e\n');
  const prB = file('b.ts', 'export const b = "pull needle";\n', PULL);
  const prF = file('src/f.ts', 'export const f = "needle";\n', PULL);
  const a2 = file('a.ts', 'export const a = 2;\n', MAIN, 2);
  const snapshot: Snapshot = { repositoryId, ref: PULL, generation: 1, underlay: { ref: MAIN, generation: 1, shadowed: ['b.ts', 'src/d.ts', 'src/f.ts'] } };
  return {
    snapshot,
    writes: [put(a1), put(b), put(c), put(d), put(e), put(prB), put(prF), retire(a1, 2), put(a2), retire(e, 2)],
    docs: [retired(a1, 2), b, c, d, retired(e, 2), prB, prF, a2] as FileDocument[],
  };
}

export function describeUnderlayCases(ctx: ConformanceContext): void {
  describe('layered refs (underlay)', () => {
    async function setUp() {
      const id = ctx.repositoryId();
      const case_ = layered(id);
      await ctx.write(case_.writes);
      return case_;
    }

    it('entries, files and lookups see own versions plus the unshadowed underlay at its generation', async () => {
      const { snapshot, docs } = await setUp();
      const store = ctx.store();
      const model = visible(docs, snapshot);
      expect(model.map((doc) => doc.path)).toEqual(['a.ts', 'b.ts', 'docs/e.md', 'src/c.ts', 'src/f.ts']);
      expect(await store.visibleEntries(snapshot, null, 100)).toEqual(model.map(({ path, blobSha, kind, fromGeneration }) => ({ path, blobSha, kind, fromGeneration })));
      expect((await store.visibleEntries(snapshot, 'b.ts', 2)).map((entry) => entry.path)).toEqual(['docs/e.md', 'src/c.ts']);
      expect((await store.lookupEntries(snapshot, ['src/d.ts', 'b.ts', 'a.ts'])).map((entry) => [entry.path, entry.blobSha])).toEqual([
        ['a.ts', model[0]!.blobSha],
        ['b.ts', model[1]!.blobSha],
      ]);
      expect(await store.getFile(snapshot, 'b.ts')).toEqual(model[1]);
      expect((await store.getFile(snapshot, 'a.ts'))?.content).toBe('export const a = 1;\n');
      expect(await store.getFile(snapshot, 'src/d.ts')).toBeNull();
      expect((await store.visibleFiles(snapshot, null, 100, 1_000_000)).map((doc) => doc.path)).toEqual(model.map((doc) => doc.path));
      expect(await store.findByBlobSha(snapshot, model[3]!.blobSha, 10)).toEqual(['src/c.ts']);
      const own: Snapshot = { repositoryId: snapshot.repositoryId, ref: snapshot.ref, generation: snapshot.generation };
      expect(await store.snapshotsWithPath([snapshot, own], 'docs/e.md')).toEqual([snapshot]);
    });

    it('listings, counts and suggestions count each path once', async () => {
      const { snapshot, docs } = await setUp();
      const store = ctx.store();
      const root: FolderScope = { ...snapshot, folder: '', depth: 3 };
      const src: FolderScope = { ...snapshot, folder: 'src', depth: 1 };
      expect(await store.listFolders(root)).toEqual(expectedFolders(docs, root));
      const listed = await store.listFiles(src, null, 10);
      expect(listed.files.map((file) => file.path)).toEqual(expectedFiles(docs, src));
      expect(listed.total).toBe(2);
      expect((await store.stats(snapshot)).fileCount).toBe(5);
      const query = suggestQuery('src/d.ts');
      expect((await store.suggestCandidates(snapshot, query)).map((c) => c.path)).toEqual(expectedSuggestions(docs, snapshot, query).map((c) => c.path));
    });

    it('content search and content reads follow the same rule', async () => {
      const { snapshot } = await setUp();
      const store = ctx.store();
      const candidates = await store.searchCandidates(snapshot, { op: 'substring', text: 'needle' }, { includeGenerated: true, afterPath: null, limit: 10 });
      expect(candidates.map((c) => c.path)).toEqual(['b.ts', 'src/c.ts', 'src/f.ts']);
      const contents = await store.readContents(snapshot, ['a.ts', 'src/d.ts', 'b.ts']);
      expect(contents).toEqual([
        { path: 'a.ts', content: 'export const a = 1;\n' },
        { path: 'b.ts', content: 'export const b = "pull needle";\n' },
      ]);
    });
  });
}
