/** Conformance cases: suggestions, lookups by path and blob, retired versions, snapshots with a path. */
import type { FileDocument } from '@gitdex/contracts';
import type { Snapshot, SuggestQuery } from '@gitdex/ports';
import { MAIN, expectedSuggestions, makeFile, put, retire, retired, suggestQuery, visible } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

const SUGGEST_PATHS = [
  'src/server/http-server.ts',
  'src/server/HttpServer.test.ts',
  'src/server/index.ts',
  'src/client/http-client.ts',
  'src/client/index.ts',
  'docs/http.md',
  'README.md',
  'src/readme.ts',
  'lib/serve.ts',
  'lib/server.ts',
  'Server.ts',
  'test/server/http-server.spec.ts',
  'src/ünïcode/naïve-café.ts',
  'src/😀/emoji-file.ts',
];

export function describeLookupCases(ctx: ConformanceContext): void {
  const at = (repositoryId: number, generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });

  describe('suggestions', () => {
    let id = 0;
    let docs: FileDocument[] = [];
    beforeAll(async () => {
      id = ctx.repositoryId();
      const current = SUGGEST_PATHS.map((path) => makeFile({ repositoryId: id, path }));
      const old = makeFile({ repositoryId: id, path: 'src/old/http-server.ts' });
      const later = makeFile({ repositoryId: id, path: 'src/later/http-server.ts', fromGeneration: 3 });
      const otherRef = makeFile({ repositoryId: id, path: 'src/server/http-server.ts', ref: 'refs/heads/dev' });
      await ctx.write([...current, old, later, otherRef].map(put));
      await ctx.write([retire(old, 2)]);
      docs = [...current, retired(old, 2), later, otherRef];
    });

    const queries: [string, SuggestQuery][] = [
      ['a misspelt path', suggestQuery('src/server/htp-server.ts')],
      ['an exact name in the wrong folder', suggestQuery('lib/http-server.ts')],
      ['a bare name', suggestQuery('server.ts')],
      ['a path prefix', suggestQuery('src/')],
      ['a case-insensitive prefix', suggestQuery('SRC/Client')],
      ['camel case', suggestQuery('httpServer')],
      ['a readme', suggestQuery('readme.md', 3)],
      ['Unicode', suggestQuery('src/unicode/naïve-cafe.ts')],
      ['an emoji folder', suggestQuery('😀/emoji')],
      ['limit 1', suggestQuery('index.ts', 1)],
      ['nothing in common', suggestQuery('qqq/zzz')],
      ['duplicate terms', { pathLower: '', nameLower: '', tokens: ['server', 'server', 'http'], trigrams: ['ser', 'ser', 'erv'], limit: 20 }],
      ['tokens only', { pathLower: '', nameLower: '', tokens: ['client'], trigrams: [], limit: 20 }],
      ['an empty query', { pathLower: '', nameLower: '', tokens: [], trigrams: [], limit: 20 }],
    ];

    it.each(queries)('scores %s exactly', async (_label, query) => {
      for (const generation of [1, 2, 3]) {
        const snapshot = at(id, generation);
        expect(await ctx.store().suggestCandidates(snapshot, query)).toEqual(expectedSuggestions(docs, snapshot, query));
      }
    });

    it('ranks by score, then path, and leaves retired versions out', async () => {
      const store = ctx.store();
      const query = suggestQuery('src/server/http-server.ts', 5);
      const at2 = await store.suggestCandidates(at(id, 2), query);
      expect(at2[0]).toEqual({ path: 'src/server/http-server.ts', blobSha: expect.any(String), score: expect.any(Number) });
      expect(at2.map((candidate) => candidate.path)).not.toContain('src/old/http-server.ts');
      const at1 = await store.suggestCandidates(at(id, 1), { ...query, limit: 50 });
      expect(at1.map((candidate) => candidate.path)).toContain('src/old/http-server.ts');
      expect(await store.suggestCandidates({ repositoryId: id, ref: 'refs/heads/none', generation: 1 }, query)).toEqual([]);
      expect(await store.suggestCandidates(at(id, 1), { ...query, limit: 0 })).toEqual([]);
    });
  });

  describe('lookups', () => {
    it('lookupEntries answers the visible entries among the paths, in path order', async () => {
      const id = ctx.repositoryId();
      const docs = ['b.ts', 'a.ts', 'dir/ü.ts', 'dir/😀.ts', 'dir/\uFB00.ts', 'old.ts'].map((path) => makeFile({ repositoryId: id, path }));
      await ctx.write(docs.map(put));
      await ctx.write([retire(docs[5] as FileDocument, 2)]);
      const model = [...docs.slice(0, 5), retired(docs[5] as FileDocument, 2)];
      const asEntries = (list: FileDocument[]) => list.map(({ path, blobSha, kind, fromGeneration }) => ({ path, blobSha, kind, fromGeneration }));
      const asked = ['old.ts', 'dir/😀.ts', 'missing.ts', 'b.ts', 'dir/\uFB00.ts', 'b.ts', 'a.ts'];
      for (const generation of [1, 2]) {
        const snapshot = at(id, generation);
        expect(await ctx.store().lookupEntries(snapshot, asked)).toEqual(asEntries(visible(model, snapshot).filter((doc) => asked.includes(doc.path))));
      }
      expect(await ctx.store().lookupEntries(at(id, 1), [])).toEqual([]);
      expect(await ctx.store().lookupEntries(at(id, 2), ['old.ts'])).toEqual([]);
    });

    it('lookupEntries handles thousands of paths', async () => {
      const id = ctx.repositoryId();
      const docs = Array.from({ length: 1500 }, (_, i) => makeFile({ repositoryId: id, path: `many/${i}.ts` }));
      await ctx.write(docs.map(put));
      const asked = docs.filter((_, i) => i % 3 === 0).map((doc) => doc.path);
      const found = await ctx.store().lookupEntries(at(id, 1), [...asked, 'many/none.ts']);
      expect(found.map((entry) => entry.path)).toEqual(
        visible(docs, at(id, 1))
          .map((doc) => doc.path)
          .filter((path) => asked.includes(path)),
      );
    });

    it('findByBlobSha answers visible paths holding the blob, in path order', async () => {
      const id = ctx.repositoryId();
      const same = 'export const same = true;\n';
      const docs = [
        makeFile({ repositoryId: id, path: 'z/copy.ts', content: same }),
        makeFile({ repositoryId: id, path: 'a/copy.ts', content: same }),
        makeFile({ repositoryId: id, path: 'ü/copy.ts', content: same }),
        makeFile({ repositoryId: id, path: 'other.ts', content: 'other\n' }),
      ];
      await ctx.write(docs.map(put));
      await ctx.write([retire(docs[2] as FileDocument, 2)]);
      const sha = (docs[0] as FileDocument).blobSha;
      const store = ctx.store();
      expect(await store.findByBlobSha(at(id, 1), sha, 10)).toEqual(['a/copy.ts', 'z/copy.ts', 'ü/copy.ts']);
      expect(await store.findByBlobSha(at(id, 2), sha, 10)).toEqual(['a/copy.ts', 'z/copy.ts']);
      expect(await store.findByBlobSha(at(id, 2), sha, 1)).toEqual(['a/copy.ts']);
      expect(await store.findByBlobSha(at(id, 2), 'f'.repeat(40), 10)).toEqual([]);
    });

    it('findRetired answers the newest retirement at or before the snapshot', async () => {
      const id = ctx.repositoryId();
      const v1 = makeFile({ repositoryId: id, path: 'moved/file.ts', content: 'v1\n' });
      const v2 = makeFile({ repositoryId: id, path: 'moved/file.ts', content: 'v2\n', fromGeneration: 2 });
      const v4 = makeFile({ repositoryId: id, path: 'moved/file.ts', content: 'v4\n', fromGeneration: 4 });
      const stays = makeFile({ repositoryId: id, path: 'stays.ts' });
      await ctx.write([put(v1), put(stays)]);
      await ctx.write([retire(v1, 2), put(v2)]);
      await ctx.write([retire(v2, 3)]);
      await ctx.write([put(v4)]);
      const store = ctx.store();
      const summary = (doc: FileDocument) => {
        const { content: _content, tokens: _tokens, trigrams: _trigrams, ...rest } = doc;
        return rest;
      };
      expect(await store.findRetired(at(id, 1), 'moved/file.ts')).toBeNull();
      expect(await store.findRetired(at(id, 2), 'moved/file.ts')).toEqual(summary(retired(v1, 2)));
      expect(await store.findRetired(at(id, 3), 'moved/file.ts')).toEqual(summary(retired(v2, 3)));
      expect(await store.findRetired(at(id, 9), 'moved/file.ts')).toEqual(summary(retired(v2, 3)));
      expect(await store.findRetired(at(id, 9), 'stays.ts')).toBeNull();
      expect(await store.findRetired(at(id, 9), 'never.ts')).toBeNull();
    });

    it('retiredPaths answers the paths findRetired answers for, distinct, in path order, at most limit', async () => {
      const id = ctx.repositoryId();
      const files = ['z.ts', 'moved/file.ts', 'a/ü.ts', 'a/z.ts', 'stays.ts'].map((path) => makeFile({ repositoryId: id, path, content: `${path} v1\n` }));
      const [z, moved, umlaut, az] = files as [FileDocument, FileDocument, FileDocument, FileDocument, FileDocument];
      const movedAgain = makeFile({ repositoryId: id, path: 'moved/file.ts', content: 'v2\n', fromGeneration: 2 });
      await ctx.write(files.map(put));
      await ctx.write([retire(moved, 2), put(movedAgain), retire(z, 2), retire(umlaut, 2)]);
      await ctx.write([retire(movedAgain, 3), retire(az, 3)]);
      const store = ctx.store();
      expect(await store.retiredPaths(at(id, 1), 10)).toEqual([]);
      expect(await store.retiredPaths(at(id, 2), 10)).toEqual(['a/ü.ts', 'moved/file.ts', 'z.ts']);
      expect(await store.retiredPaths(at(id, 3), 10)).toEqual(['a/z.ts', 'a/ü.ts', 'moved/file.ts', 'z.ts']);
      expect(await store.retiredPaths(at(id, 3), 2)).toEqual(['a/z.ts', 'a/ü.ts']);
      expect(await store.retiredPaths(at(id, 3), 0)).toEqual([]);
      expect(await store.retiredPaths({ repositoryId: id, ref: 'refs/heads/none', generation: 3 }, 10)).toEqual([]);
      for (const path of await store.retiredPaths(at(id, 3), 10)) expect(await store.findRetired(at(id, 3), path)).not.toBeNull();
    });

    it('snapshotsWithPath answers the snapshots that show the path, in the order asked', async () => {
      const id = ctx.repositoryId();
      const other = ctx.repositoryId();
      const dev = 'refs/heads/dev';
      const path = 'src/ünï code.ts';
      const mainDoc = makeFile({ repositoryId: id, path, fromGeneration: 2 });
      await ctx.write([put(mainDoc), put(makeFile({ repositoryId: id, path, ref: dev })), put(makeFile({ repositoryId: other, path: 'src/else.ts' }))]);
      await ctx.write([retire(mainDoc, 4)]);
      const snapshots: Snapshot[] = [
        { repositoryId: id, ref: MAIN, generation: 1 },
        { repositoryId: id, ref: MAIN, generation: 2 },
        { repositoryId: id, ref: dev, generation: 1 },
        { repositoryId: other, ref: MAIN, generation: 1 },
        { repositoryId: id, ref: MAIN, generation: 3 },
        { repositoryId: id, ref: MAIN, generation: 4 },
        { repositoryId: id, ref: 'refs/heads/none', generation: 1 },
      ];
      expect(await ctx.store().snapshotsWithPath(snapshots, path)).toEqual([snapshots[1], snapshots[2], snapshots[4]]);
      expect(await ctx.store().snapshotsWithPath([], path)).toEqual([]);
      expect(await ctx.store().snapshotsWithPath(snapshots, 'src/none.ts')).toEqual([]);
    });
  });
}
