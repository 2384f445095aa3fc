/** Conformance cases: lookupForRead and visibleFiles answer what findRepositoryByName, listRefStates and getFile answer. */
import type { BlobSymbols } from '@gitdex/contracts';
import { visibleVersion, type ReadLookup } from '@gitdex/ports';
import { MAIN, makeFile, makeRefState, makeRepository, put, retire } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

/** A blob's symbols: one function named so. */
function symbols(name: string): BlobSymbols {
  return { extractor: 1, language: 'TypeScript', status: 'parsed', definitions: [{ name, kind: 'function', line: 1, endLine: 1, container: null, signature: `function ${name}()` }], occurrences: [] };
}

export function describeReadLookupCases(ctx: ConformanceContext): void {
  describe('lookupForRead', () => {
    let id = 0;
    let name = '';
    const path = 'src/app.ts';
    beforeAll(async () => {
      id = ctx.repositoryId();
      name = `Read-${id}/Ahead`;
      const store = ctx.store();
      await store.putRepository(makeRepository(id, name));
      await store.putRefState(makeRefState(id, MAIN, { generation: 4 }));
      await store.putRefState(makeRefState(id, 'refs/heads/dev', { generation: 2 }));
      // Generation 1 retired at 3, 3 served until 6, 6 being indexed; the same path in dev and a neighbour.
      const first = makeFile({ repositoryId: id, path, content: 'one\n', symbols: symbols('one') });
      const second = makeFile({ repositoryId: id, path, content: 'two\n', fromGeneration: 3, symbols: symbols('two') });
      const third = makeFile({ repositoryId: id, path, content: 'three\n', fromGeneration: 6 });
      // In dev, so the listings of main below stay as they are.
      const link = makeFile({ repositoryId: id, path: 'docs/link.md', ref: 'refs/heads/dev', kind: 'symlink', target: '../README.md', content: null, lineCount: null });
      const binary = makeFile({ repositoryId: id, path: 'logo.png', content: null, flags: { binary: true, vendored: false, generated: false, tooLarge: false }, contentBase64: 'iVBORw0KGgo=' });
      await ctx.write([
        put(first),
        put(second),
        put(third),
        put(makeFile({ repositoryId: id, path, ref: 'refs/heads/dev' })),
        put(makeFile({ repositoryId: id, path: 'src/app.tsx' })),
        put(binary),
        put(link),
      ]);
      await ctx.write([retire(first, 3), retire(second, 6)]);
    });

    /** Paths and lookups whose picked version is checked at every generation: several versions, a binary file, none. */
    const picks = [
      [path, { since: 0, limit: 3 }],
      [path, { since: 0, limit: 1 }],
      [path, { since: 3, limit: 3 }],
      ['logo.png', { since: 0, limit: 3 }],
      ['src/none.ts', { since: 0, limit: 3 }],
    ] as const;
    const lookup = (request: Partial<ReadLookup> = {}) => ctx.store().lookupForRead({ fullName: name.toUpperCase(), repositoryId: id, ...request });

    it('answers the repository by name and the ref states as the lookups one by one do', async () => {
      const store = ctx.store();
      const answer = await lookup();
      expect(answer.repository).toEqual(await store.findRepositoryByName(name));
      expect(answer.refStates).toEqual(await store.listRefStates(id));
      expect(answer.refStates.map((state) => state.ref)).toEqual(['refs/heads/dev', MAIN]);
      expect(answer.versions).toBeNull();
    });

    it('answers the newest versions of the path in the ref, visible or not, newest first', async () => {
      const answer = await lookup({ versions: { ref: MAIN, path, since: 0, limit: 10 } });
      expect(answer.versions?.map((v) => [v.fromGeneration, v.retiredAtGeneration ?? null, v.content])).toEqual([
        [6, null, 'three\n'],
        [3, 6, 'two\n'],
        [1, 3, 'one\n'],
      ]);
      const two = await lookup({ versions: { ref: MAIN, path, since: 0, limit: 2 } });
      expect(two.versions?.map((v) => v.fromGeneration)).toEqual([6, 3]);
      const since = await lookup({ versions: { ref: MAIN, path, since: 3, limit: 10 } });
      expect(since.versions?.map((v) => v.fromGeneration)).toEqual([6, 3]);
      expect((await lookup({ versions: { ref: MAIN, path: 'src/none.ts', since: 0, limit: 3 } })).versions).toEqual([]);
      expect((await lookup({ versions: { ref: 'refs/heads/none', path, since: 0, limit: 3 } })).versions).toEqual([]);
    });

    it('the version picked at each generation is the document getFile answers, byte for byte', async () => {
      const store = ctx.store();
      for (const [filePath, asked] of picks) {
        const answer = await lookup({ versions: { ref: MAIN, path: filePath, ...asked } });
        for (const generation of [1, 2, 3, 4, 5, 6, 7]) {
          const picked = visibleVersion(answer.versions ?? [], generation, asked);
          if (picked === undefined) continue;
          expect(JSON.stringify(picked)).toBe(JSON.stringify(await store.getFile({ repositoryId: id, ref: MAIN, generation }, filePath)));
        }
      }
      const all = await lookup({ versions: { ref: MAIN, path, since: 0, limit: 3 } });
      expect([1, 2, 3, 4, 5, 6, 7].map((g) => visibleVersion(all.versions ?? [], g, { since: 0, limit: 3 })?.fromGeneration ?? null)).toEqual([1, 1, 3, 3, 3, 6, 6]);
      const binary = await lookup({ versions: { ref: MAIN, path: 'logo.png', since: 0, limit: 3 } });
      expect(binary.versions?.[0]?.contentBase64).toBe('iVBORw0KGgo=');
    });

    it('with outlines, the version picked at each generation is what fileSymbols answers, its kind beside it', async () => {
      const store = ctx.store();
      for (const [filePath, asked] of picks) {
        const answer = await lookup({ outlines: { ref: MAIN, path: filePath, ...asked } });
        expect(answer.versions).toBeNull();
        for (const generation of [1, 2, 3, 4, 5, 6, 7]) {
          const picked = visibleVersion(answer.outlines ?? [], generation, asked);
          if (picked === undefined) continue;
          const expected = await store.fileSymbols({ repositoryId: id, ref: MAIN, generation }, filePath);
          if (picked === null) {
            expect(expected).toBeNull();
            continue;
          }
          const { kind, fromGeneration: _from, retiredAtGeneration: _retired, ...file } = picked;
          expect(kind).toBe('file');
          expect(file).toEqual(expected);
        }
      }
      // fileSymbols answers files only: a symlink's version says what it is.
      const link = await lookup({ outlines: { ref: 'refs/heads/dev', path: 'docs/link.md', since: 0, limit: 3 } });
      expect(link.outlines?.map((v) => v.kind)).toEqual(['symlink']);
      expect(await store.fileSymbols({ repositoryId: id, ref: 'refs/heads/dev', generation: 2 }, 'docs/link.md')).toBeNull();
      const all = await lookup({ outlines: { ref: MAIN, path, since: 0, limit: 3 } });
      expect(all.outlines?.map((v) => [v.fromGeneration, v.retiredAtGeneration ?? null, v.symbols?.definitions.map((d) => d.name) ?? null])).toEqual([
        [6, null, null],
        [3, 6, ['two']],
        [1, 3, ['one']],
      ]);
      expect((await lookup({ outlines: { ref: 'refs/heads/none', path, since: 0, limit: 3 } })).outlines).toEqual([]);
    });

    it('visibleFiles answers the documents getFile answers at each generation, in path order, up to maxSize, a page at a time', async () => {
      const store = ctx.store();
      for (const generation of [1, 3, 4, 6]) {
        const snapshot = { repositoryId: id, ref: MAIN, generation };
        const all = await store.visibleFiles(snapshot, null, 100, 1_000_000);
        expect(all.map((doc) => doc.path)).toEqual(['logo.png', path, 'src/app.tsx']);
        for (const doc of all) expect(JSON.stringify(doc)).toBe(JSON.stringify(await store.getFile(snapshot, doc.path)));
        const paged = [...(await store.visibleFiles(snapshot, null, 2, 1_000_000)), ...(await store.visibleFiles(snapshot, path, 2, 1_000_000))];
        expect(paged.map((doc) => doc.path)).toEqual(['logo.png', path, 'src/app.tsx']);
      }
      // 'three\n' is 6 bytes, 'two\n' 4: the size bound leaves out what is bigger.
      const small = await store.visibleFiles({ repositoryId: id, ref: MAIN, generation: 6 }, null, 100, 5);
      expect(small.map((doc) => doc.path)).not.toContain(path);
      expect(await store.visibleFiles({ repositoryId: id, ref: 'refs/heads/none', generation: 6 }, null, 100, 1_000_000)).toEqual([]);
    });

    it('answers no repository for an unknown name and no states for an unknown id', async () => {
      const answer = await ctx.store().lookupForRead({ fullName: `read-${id}/missing`, repositoryId: ctx.repositoryId(), versions: { ref: MAIN, path, since: 0, limit: 3 } });
      expect(answer).toEqual({ repository: null, refStates: [], versions: [], outlines: null });
    });
  });
}
