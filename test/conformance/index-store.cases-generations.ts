/** Conformance cases: writes, idempotence, generations, discardAfter and pruneRetired. */
import type { FileDocument } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put, retire, retired, visible } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

/** gen 1: a.ts, b.ts, c/d.ts. gen 2 (written, not yet flipped): b.ts replaced, c/d.ts deleted, e.ts added. */
function twoGenerations(repositoryId: number) {
  const a = makeFile({ repositoryId, path: 'a.ts' });
  const b1 = makeFile({ repositoryId, path: 'b.ts', content: 'export const b = 1;\n' });
  const d = makeFile({ repositoryId, path: 'c/d.ts' });
  const b2 = makeFile({ repositoryId, path: 'b.ts', content: 'export const b = 2;\n', fromGeneration: 2 });
  const e = makeFile({ repositoryId, path: 'e.ts', fromGeneration: 2 });
  return {
    a,
    b1,
    b2,
    d,
    e,
    gen1: [put(a), put(b1), put(d)],
    gen2: [retire(b1, 2), put(b2), retire(d, 2), put(e)],
    /** The model after both generations were written. */
    docs: [a, retired(b1, 2), retired(d, 2), b2, e],
  };
}

export function describeGenerationCases(ctx: ConformanceContext): void {
  const at = (repositoryId: number, generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });
  const entries = async (snapshot: Snapshot) => ctx.store().visibleEntries(snapshot, null, 1000);
  const modelEntries = (docs: FileDocument[], snapshot: Snapshot) => visible(docs, snapshot).map(({ path, blobSha, kind, fromGeneration }) => ({ path, blobSha, kind, fromGeneration }));

  describe('writes and generations', () => {
    it('getFile returns the whole document as written', async () => {
      const id = ctx.repositoryId();
      const symlink = makeFile({ repositoryId: id, path: 'docs/link.md', kind: 'symlink', target: '../README.md', content: null, lineCount: null });
      const binary = makeFile({
        repositoryId: id,
        path: 'assets/logo.png',
        content: null,
        size: 12345,
        flags: { binary: true, vendored: false, generated: false, tooLarge: false },
      });
      const code = makeFile({ repositoryId: id, path: 'src/main.ts', content: 'console.log("héllo 😀");\n'.repeat(50) });
      await ctx.write([put(symlink), put(binary), put(code)]);
      const store = ctx.store();
      expect(await store.getFile(at(id, 1), 'docs/link.md')).toEqual(symlink);
      expect(await store.getFile(at(id, 1), 'assets/logo.png')).toEqual(binary);
      expect(await store.getFile(at(id, 1), 'src/main.ts')).toEqual(code);
      expect(await store.getFile(at(id, 1), 'src/missing.ts')).toBeNull();
      expect(await store.getFile({ repositoryId: id, ref: 'refs/heads/other', generation: 1 }, 'src/main.ts')).toBeNull();
      expect(await store.getFile(at(id, 0), 'src/main.ts')).toBeNull();
    });

    it('writes are idempotent and a put replaces the whole document', async () => {
      const id = ctx.repositoryId();
      const docs = ['x.ts', 'y/z.md', 'y/w.json'].map((path) => makeFile({ repositoryId: id, path }));
      await ctx.write(docs.map(put));
      await ctx.write(docs.map(put));
      await ctx.write([retire(docs[0] as FileDocument, 3), retire(docs[0] as FileDocument, 3)]);
      const store = ctx.store();
      expect(await entries(at(id, 1))).toEqual(modelEntries(docs, at(id, 1)));
      expect((await store.stats(at(id, 1))).fileCount).toBe(3);
      expect(await store.listFolders({ ...at(id, 1), folder: '', depth: 5 })).toEqual([{ path: 'y', fileCount: 2 }]);

      const replaced = makeFile({ repositoryId: id, path: 'y/z.md', content: '# changed\n', language: null });
      await ctx.write([put(replaced)]);
      expect(await store.getFile(at(id, 1), 'y/z.md')).toEqual(replaced);
      expect(await store.getFile(at(id, 2), 'y/z.md')).toEqual(replaced);
      expect((await store.stats(at(id, 1))).fileCount).toBe(3);
      expect(await store.getFile(at(id, 3), 'x.ts')).toBeNull();
    });

    it('shows each snapshot of two generations consistently', async () => {
      const id = ctx.repositoryId();
      const g = twoGenerations(id);
      await ctx.write(g.gen1);
      await ctx.write([...g.gen2, retire(makeFile({ repositoryId: id, path: 'never.ts', fromGeneration: 7 }), 2)]);
      const store = ctx.store();

      expect((await entries(at(id, 1))).map((entry) => entry.path)).toEqual(['a.ts', 'b.ts', 'c/d.ts']);
      expect(await entries(at(id, 1))).toEqual(modelEntries(g.docs, at(id, 1)));
      expect(await entries(at(id, 2))).toEqual(modelEntries(g.docs, at(id, 2)));
      expect((await entries(at(id, 2))).map((entry) => entry.path)).toEqual(['a.ts', 'b.ts', 'e.ts']);
      expect(await entries(at(id, 9))).toEqual(modelEntries(g.docs, at(id, 9)));

      expect(await store.getFile(at(id, 1), 'b.ts')).toEqual(retired(g.b1, 2));
      expect(await store.getFile(at(id, 2), 'b.ts')).toEqual(g.b2);
      expect(await store.getFile(at(id, 2), 'c/d.ts')).toBeNull();
      expect(await store.listFolders({ ...at(id, 1), folder: '', depth: 1 })).toEqual([{ path: 'c', fileCount: 1 }]);
      expect(await store.listFolders({ ...at(id, 2), folder: '', depth: 1 })).toEqual([]);
      expect((await store.stats(at(id, 1))).fileCount).toBe(3);
      expect((await store.stats(at(id, 2))).fileCount).toBe(3);
    });

    it('discardAfter drops later versions and later retirements', async () => {
      const id = ctx.repositoryId();
      const g = twoGenerations(id);
      await ctx.write(g.gen1);
      await ctx.write(g.gen2);
      const store = ctx.store();
      await store.discardAfter(at(id, 1));
      await store.refresh();

      const gen1Only = [g.a, g.b1, g.d];
      expect(await entries(at(id, 2))).toEqual(modelEntries(gen1Only, at(id, 2)));
      expect(await entries(at(id, 1))).toEqual(modelEntries(gen1Only, at(id, 1)));
      const b = await store.getFile(at(id, 2), 'b.ts');
      expect(b).toEqual(g.b1);
      expect(b).not.toHaveProperty('retiredAtGeneration');
      expect(await store.findRetired(at(id, 5), 'b.ts')).toBeNull();
      expect(await store.listFolders({ ...at(id, 2), folder: '', depth: 1 })).toEqual([{ path: 'c', fileCount: 1 }]);
      expect((await store.listFiles({ ...at(id, 2), folder: 'c', depth: 1 }, null, 10)).total).toBe(1);
      expect(await store.suggestCandidates(at(id, 2), { pathLower: 'e.ts', nameLower: 'e.ts', tokens: [], trigrams: [], limit: 5 })).toEqual([]);

      // The retried attempt writes generation 2 again and it shows as before.
      await ctx.write(g.gen2);
      expect(await entries(at(id, 2))).toEqual(modelEntries(g.docs, at(id, 2)));
      await store.discardAfter({ repositoryId: id, ref: 'refs/heads/unknown', generation: 1 });
    });

    it('pruneRetired deletes versions retired at or before the generation', async () => {
      const id = ctx.repositoryId();
      const g = twoGenerations(id);
      await ctx.write(g.gen1);
      await ctx.write(g.gen2);
      const store = ctx.store();

      await store.pruneRetired(id, MAIN, 1);
      await store.refresh();
      expect(await entries(at(id, 1))).toEqual(modelEntries(g.docs, at(id, 1)));

      await store.pruneRetired(id, MAIN, 2);
      await store.refresh();
      const pruned = [g.a, g.b2, g.e];
      expect(await entries(at(id, 1))).toEqual(modelEntries(pruned, at(id, 1)));
      expect((await entries(at(id, 1))).map((entry) => entry.path)).toEqual(['a.ts']);
      expect(await entries(at(id, 2))).toEqual(modelEntries(pruned, at(id, 2)));
      expect(await store.findRetired(at(id, 2), 'b.ts')).toBeNull();
      expect(await store.findRetired(at(id, 2), 'c/d.ts')).toBeNull();
      expect(await store.listFolders({ ...at(id, 1), folder: '', depth: 1 })).toEqual([]);
      await store.pruneRetired(id, 'refs/heads/unknown', 5);
    });
  });
}
