/** Conformance cases: path order with Unicode, folder and file listings with depth and paging, stats. */
import type { FileDocument } from '@gitdex/contracts';
import type { FileSummary, FolderScope, IndexStore, Snapshot } from '@gitdex/ports';
import { MAIN, expectedFiles, expectedFolders, makeFile, put, retire, retired, sortedPaths } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

/** Paths whose code point order differs from JS string order (U+FB00 sorts before an emoji, JS says after). */
const UNICODE_PATHS = [
  'a.txt',
  'B.txt',
  'Z/z.md',
  'a b/c d.txt',
  'a b/c.txt',
  'ä.txt',
  'é/x.ts',
  '😀/smile.md',
  '😀/🎉 party.md',
  '\uFB00.txt',
  'z-last.txt',
  '中文/文件.md',
  'a/b.txt',
  'a-b.txt',
  'a_b.txt',
  'a0.txt',
  'a/b/c/d/e.txt',
  'ab/x.md',
];

async function pageFiles(store: IndexStore, scope: FolderScope, limit: number): Promise<{ paths: string[]; totals: Set<number>; pages: FileSummary[][] }> {
  const paths: string[] = [];
  const totals = new Set<number>();
  const pages: FileSummary[][] = [];
  let after: string | null = null;
  for (;;) {
    const page = await store.listFiles(scope, after, limit);
    totals.add(page.total);
    pages.push(page.files);
    paths.push(...page.files.map((file) => file.path));
    if (page.files.length < limit) break;
    after = page.files[page.files.length - 1]?.path ?? null;
    if (pages.length > 10_000) throw new Error('listFiles never ends');
  }
  return { paths, totals, pages };
}

export function describeListingCases(ctx: ConformanceContext): void {
  const at = (repositoryId: number, generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });

  describe('path order', () => {
    it('orders Unicode, space and emoji paths by code point in every listing', async () => {
      const id = ctx.repositoryId();
      const docs = UNICODE_PATHS.map((path) => makeFile({ repositoryId: id, path }));
      await ctx.write(docs.map(put));
      const store = ctx.store();
      const expected = sortedPaths(UNICODE_PATHS);
      expect(expected.indexOf('\uFB00.txt')).toBeLessThan(expected.indexOf('😀/smile.md'));

      expect((await store.visibleEntries(at(id, 1), null, 100)).map((entry) => entry.path)).toEqual(expected);
      const paged: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 50; i += 1) {
        const page = await store.visibleEntries(at(id, 1), after, 3);
        paged.push(...page.map((entry) => entry.path));
        if (page.length < 3) break;
        after = page[page.length - 1]?.path ?? null;
      }
      expect(paged).toEqual(expected);
      expect((await store.visibleEntries(at(id, 1), 'a b/c.txt', 2)).map((entry) => entry.path)).toEqual(expected.slice(expected.indexOf('a b/c.txt') + 1).slice(0, 2));

      const root: FolderScope = { ...at(id, 1), folder: '', depth: 10 };
      expect((await pageFiles(store, root, 4)).paths).toEqual(expected);
      expect(await store.listFolders(root)).toEqual(expectedFolders(docs, root));
      expect((await store.listFolders(root)).map((folder) => folder.path)).toContain('😀');

      const emoji = await store.getFile(at(id, 1), '😀/🎉 party.md');
      expect(emoji?.path).toBe('😀/🎉 party.md');
      expect(await store.getFile(at(id, 1), 'a b/c d.txt')).toEqual(docs.find((doc) => doc.path === 'a b/c d.txt'));
      const emojiScope: FolderScope = { ...at(id, 1), folder: '😀', depth: 1 };
      expect(await store.listFiles(emojiScope, null, 10)).toEqual({
        files: expect.any(Array),
        total: 2,
      });
      expect((await store.listFiles(emojiScope, null, 10)).files.map((file) => file.path)).toEqual(expectedFiles(docs, emojiScope));
    });
  });

  describe('folder and file listings', () => {
    // big/ holds 1,100 files directly, 150 in big/sub and 50 in big/sub/deep.
    const build = (id: number): FileDocument[] => [
      ...Array.from({ length: 1100 }, (_, i) => makeFile({ repositoryId: id, path: `big/f${String(i).padStart(4, '0')}.ts` })),
      ...Array.from({ length: 150 }, (_, i) => makeFile({ repositoryId: id, path: `big/sub/s${i}.md` })),
      ...Array.from({ length: 50 }, (_, i) => makeFile({ repositoryId: id, path: `big/sub/deep/d${i}.json` })),
      makeFile({ repositoryId: id, path: 'big-sibling/x.ts' }),
      makeFile({ repositoryId: id, path: 'bigger.ts' }),
      makeFile({ repositoryId: id, path: 'root.md' }),
    ];

    let id = 0;
    let docs: FileDocument[] = [];
    beforeAll(async () => {
      id = ctx.repositoryId();
      docs = build(id);
      await ctx.write(docs.map(put));
      // Generation 2 deletes big/sub/deep entirely and ten files of big/.
      const gone = [...docs.filter((doc) => doc.path.startsWith('big/sub/deep/')), ...docs.slice(0, 10)];
      await ctx.write(gone.map((doc) => retire(doc, 2)));
      const goneIds = new Set(gone);
      docs = docs.map((doc) => (goneIds.has(doc) ? retired(doc, 2) : doc));
    });

    it('counts folders under a scope by depth', async () => {
      const store = ctx.store();
      const scopes: FolderScope[] = [];
      for (const generation of [1, 2]) {
        for (const [folder, depth] of [
          ['', 1],
          ['', 2],
          ['', 3],
          ['', 99],
          ['big', 1],
          ['big', 2],
          ['big/sub', 1],
          ['big/sub/deep', 3],
          ['nope', 2],
          ['', 0],
        ] as const) {
          scopes.push({ ...at(id, generation), folder, depth });
        }
      }
      for (const scope of scopes) expect({ scope, folders: await store.listFolders(scope) }).toEqual({ scope, folders: expectedFolders(docs, scope) });
      expect(await store.listFolders({ ...at(id, 1), folder: '', depth: 3 })).toEqual([
        { path: 'big', fileCount: 1300 },
        { path: 'big-sibling', fileCount: 1 },
        { path: 'big/sub', fileCount: 200 },
        { path: 'big/sub/deep', fileCount: 50 },
      ]);
      expect(await store.listFolders({ ...at(id, 2), folder: 'big', depth: 5 })).toEqual([{ path: 'big/sub', fileCount: 150 }]);
    });

    it('pages through 1,000+ files of a folder, each exactly once, with a stable total', async () => {
      const store = ctx.store();
      for (const scope of [
        { ...at(id, 1), folder: 'big', depth: 1 },
        { ...at(id, 2), folder: 'big', depth: 1 },
        { ...at(id, 1), folder: 'big', depth: 3 },
        { ...at(id, 1), folder: '', depth: 1 },
        { ...at(id, 2), folder: '', depth: 99 },
      ]) {
        const expected = expectedFiles(docs, scope);
        const { paths, totals, pages } = await pageFiles(store, scope, 250);
        expect({ scope, totals: [...totals] }).toEqual({ scope, totals: [expected.length] });
        expect(paths).toEqual(expected);
        expect(new Set(paths).size).toBe(paths.length);
        for (const file of pages.flat().slice(0, 20)) {
          expect(file).not.toHaveProperty('content');
          expect(file).not.toHaveProperty('tokens');
          expect(file).not.toHaveProperty('trigrams');
        }
      }
      const first = await store.listFiles({ ...at(id, 1), folder: 'big', depth: 1 }, null, 2);
      expect(first.total).toBe(1100);
      const { content: _content, tokens: _tokens, trigrams: _trigrams, ...summary } = docs.find((doc) => doc.path === 'big/f0000.ts') as FileDocument;
      expect(first.files[0]).toEqual({ ...summary, retiredAtGeneration: 2 });
      expect(await store.listFiles({ ...at(id, 1), folder: 'big', depth: 0 }, null, 10)).toEqual({ files: [], total: 0 });
      expect(await store.listFiles({ ...at(id, 1), folder: 'nope', depth: 3 }, null, 10)).toEqual({ files: [], total: 0 });
      expect((await store.listFiles({ ...at(id, 1), folder: 'big', depth: 1 }, 'big/f1099.ts', 10)).files).toEqual([]);
      expect((await store.visibleEntries(at(id, 2), null, 5000)).length).toBe(docs.length - 60);
    });

    it('stats counts languages, categories and bytes of the visible files', async () => {
      const store = ctx.store();
      for (const generation of [1, 2]) {
        const shown = docs.filter((doc) => doc.fromGeneration <= generation && (doc.retiredAtGeneration ?? Infinity) > generation);
        const languages: Record<string, number> = {};
        const categories: Record<string, number> = {};
        for (const doc of shown) {
          if (doc.language !== null) languages[doc.language] = (languages[doc.language] ?? 0) + 1;
          categories[doc.category] = (categories[doc.category] ?? 0) + 1;
        }
        const totalBytes = shown.reduce((sum, doc) => sum + doc.size, 0);
        expect(await store.stats(at(id, generation))).toEqual({ fileCount: shown.length, languages, categories, totalBytes });
      }
      expect(await store.stats({ repositoryId: id, ref: 'refs/heads/none', generation: 1 })).toEqual({ fileCount: 0, languages: {}, categories: {}, totalBytes: 0 });
    });

    it('stats skips null languages', async () => {
      const other = ctx.repositoryId();
      await ctx.write([put(makeFile({ repositoryId: other, path: 'Makefile', content: 'all:\n' })), put(makeFile({ repositoryId: other, path: 'x.ts', content: 'let x;\n' }))]);
      expect(await ctx.store().stats(at(other, 1))).toEqual({ fileCount: 2, languages: { TypeScript: 1 }, categories: { other: 1, code: 1 }, totalBytes: 12 });
    });
  });
}
