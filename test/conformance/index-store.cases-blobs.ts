import type { ContentPlan, Snapshot } from '@gitdex/ports';
import { storedBytes } from '@gitdex/contracts';
import { MAIN, makeFile, put, retire } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

const FEATURE = 'refs/heads/feature';
const SCOPE = { includeGenerated: true, afterPath: null, limit: 100 };
const sub = (text: string): ContentPlan => ({ op: 'substring', text });

/**
 * Content stored once per blob, seen through the port: however an adapter shares a blob
 * between refs, generations and paths, each snapshot reads and searches exactly its own
 * files, and removing one holder of a blob never takes it from another.
 */
export function describeBlobCases(ctx: ConformanceContext): void {
  describe('blobs shared between refs, paths and generations', () => {
    const found = async (snapshot: Snapshot, plan: ContentPlan) => (await ctx.store().searchCandidates(snapshot, plan, SCOPE)).map((c) => c.path);

    it('two refs sharing a blob: deleting one leaves the other reading and searching it, bytes included', async () => {
      const repositoryId = ctx.repositoryId();
      const other = ctx.repositoryId();
      const shared = 'export const sharedBlobMarker = 1;\n';
      const latin = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
      const bytes = { content: 'café\n', size: latin.length, encoding: 'windows-1252' as const, contentBase64: latin.toString('base64') };
      const docs = (ref: string, id = repositoryId) => [
        makeFile({ repositoryId: id, ref, path: 'src/a.ts', content: shared }),
        makeFile({ repositoryId: id, ref, path: 'src/copy-of-a.ts', content: shared }),
        makeFile({ repositoryId: id, ref, path: 'src/latin.txt', ...bytes }),
      ];
      await ctx.write([...docs(MAIN), ...docs(FEATURE), ...docs(MAIN, other)].map(put));
      const main = { repositoryId, ref: MAIN, generation: 1 };
      const feature = { repositoryId, ref: FEATURE, generation: 1 };
      const elsewhere = { repositoryId: other, ref: MAIN, generation: 1 };
      for (const snapshot of [main, feature, elsewhere]) {
        expect(await found(snapshot, sub('sharedblobmarker'))).toEqual(['src/a.ts', 'src/copy-of-a.ts']);
      }

      await ctx.store().deleteRef(repositoryId, FEATURE);
      await ctx.store().refresh();
      expect(await found(feature, sub('sharedblobmarker'))).toEqual([]);
      expect(await ctx.store().getFile(feature, 'src/a.ts')).toBeNull();
      expect(await found(main, sub('sharedblobmarker'))).toEqual(['src/a.ts', 'src/copy-of-a.ts']);
      expect((await ctx.store().getFile(main, 'src/copy-of-a.ts'))?.content).toBe(shared);
      expect(await ctx.store().readContents(main, ['src/a.ts'])).toEqual([{ path: 'src/a.ts', content: shared }]);
      const text = await ctx.store().getFile(main, 'src/latin.txt');
      expect(text).toMatchObject({ content: 'café\n', encoding: 'windows-1252' });
      expect(storedBytes(text!)).toEqual(latin);

      // Another repository's copy of the same blob is its own: deleting the first repository keeps it.
      await ctx.store().deleteRepository(repositoryId);
      await ctx.store().refresh();
      expect(await found(main, sub('sharedblobmarker'))).toEqual([]);
      expect(await found(elsewhere, sub('sharedblobmarker'))).toEqual(['src/a.ts', 'src/copy-of-a.ts']);
      expect(storedBytes((await ctx.store().getFile(elsewhere, 'src/latin.txt'))!)).toEqual(latin);

      // Written again after every holder went, the blob is whole again.
      await ctx.write(docs(FEATURE).map(put));
      expect(await found(feature, sub('sharedblobmarker'))).toEqual(['src/a.ts', 'src/copy-of-a.ts']);
      expect(storedBytes((await ctx.store().getFile(feature, 'src/latin.txt'))!)).toEqual(latin);
    });

    it('a file changed back and forth reads and searches right at every generation, before and after pruning', async () => {
      const repositoryId = ctx.repositoryId();
      const first = 'const phase = "alphaPhaseMarker";\n';
      const second = 'const phase = "betaPhaseMarker";\n';
      const v1 = makeFile({ repositoryId, path: 'src/phase.ts', content: first, fromGeneration: 1 });
      const v2 = makeFile({ repositoryId, path: 'src/phase.ts', content: second, fromGeneration: 2 });
      const v3 = makeFile({ repositoryId, path: 'src/phase.ts', content: first, fromGeneration: 3 });
      await ctx.write([put(v1)]);
      await ctx.write([put(v2), retire(v1, 2)]);
      await ctx.write([put(v3), retire(v2, 3)]);
      const at = (generation: number) => ({ repositoryId, ref: MAIN, generation });
      const expectPhases = async (generations: number[]) => {
        for (const generation of generations) {
          const content = generation === 2 ? second : first;
          expect((await ctx.store().getFile(at(generation), 'src/phase.ts'))?.content).toBe(content);
          expect(await found(at(generation), sub('alphaphasemarker'))).toEqual(generation === 2 ? [] : ['src/phase.ts']);
          expect(await found(at(generation), sub('betaphasemarker'))).toEqual(generation === 2 ? ['src/phase.ts'] : []);
        }
      };
      await expectPhases([1, 2, 3]);
      const versions = await ctx.store().lookupForRead({ fullName: 'nobody/nothing', repositoryId, versions: { ref: MAIN, path: 'src/phase.ts', since: 0, limit: 10 } });
      expect(versions.versions?.map((v) => v.content)).toEqual([first, second, first]);

      // Pruning the first version (its blob also the third's) keeps the third whole.
      await ctx.store().pruneRetired(repositoryId, MAIN, 2);
      await ctx.store().refresh();
      await expectPhases([2, 3]);
      await ctx.store().pruneRetired(repositoryId, MAIN, 3);
      await ctx.store().refresh();
      await expectPhases([3]);
      expect(await ctx.store().getFile(at(2), 'src/phase.ts')).toBeNull();
    });

    it('prune keeps what a pinned generation reads, and a discarded generation takes only its own blobs', async () => {
      const repositoryId = ctx.repositoryId();
      const kept = 'export const keptMarker = true;\n';
      const a1 = makeFile({ repositoryId, path: 'src/a.ts', content: kept, fromGeneration: 1 });
      const a2 = makeFile({ repositoryId, path: 'src/a.ts', content: 'export const a = 2;\n', fromGeneration: 2 });
      // Generation 2 renames a's first content to b: the same blob at another path.
      const b2 = makeFile({ repositoryId, path: 'src/b.ts', content: kept, fromGeneration: 2 });
      await ctx.write([put(a1)]);
      await ctx.write([put(a2), retire(a1, 2), put(b2)]);
      const at = (generation: number) => ({ repositoryId, ref: MAIN, generation });

      // Generation 1 is pinned (a reader holds it): pruning up to 1 keeps it whole.
      await ctx.store().pruneRetired(repositoryId, MAIN, 1);
      await ctx.store().refresh();
      expect((await ctx.store().getFile(at(1), 'src/a.ts'))?.content).toBe(kept);
      expect(await found(at(1), sub('keptmarker'))).toEqual(['src/a.ts']);

      // Unpinned and pruned: the blob stays for b.
      await ctx.store().pruneRetired(repositoryId, MAIN, 2);
      await ctx.store().refresh();
      expect(await ctx.store().getFile(at(1), 'src/a.ts')).toBeNull();
      expect(await found(at(2), sub('keptmarker'))).toEqual(['src/b.ts']);
      expect((await ctx.store().getFile(at(2), 'src/b.ts'))?.content).toBe(kept);

      // A generation written then discarded leaves generation 2 as it was.
      const b3 = makeFile({ repositoryId, path: 'src/b.ts', content: 'export const discardedMarker = 3;\n', fromGeneration: 3 });
      await ctx.write([put(b3), retire(b2, 3)]);
      await ctx.store().discardAfter(at(2));
      await ctx.store().refresh();
      expect(await found(at(3), sub('discardedmarker'))).toEqual([]);
      expect(await found(at(3), sub('keptmarker'))).toEqual(['src/b.ts']);
      expect((await ctx.store().getFile(at(3), 'src/b.ts'))?.content).toBe(kept);
    });
  });
}
