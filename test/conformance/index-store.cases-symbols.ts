/**
 * Conformance cases: a blob's symbols, stored once per blob beside its content and found
 * through the symbol reads exactly while a file version holding the blob is visible in the
 * snapshots asked (docs/design/symbols-storage.md). Symbols are given explicitly: the port
 * takes them as extraction hands them over.
 */
import type { BlobSymbols, FileDocument, SymbolDefinition, SymbolOccurrence } from '@gitdex/contracts';
import type { Snapshot } from '@gitdex/ports';
import { MAIN, makeFile, put, retire } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';
import { describeSymbolRankingCases } from './index-store.cases-symbol-ranking';

const FEATURE = 'refs/heads/feature';
const PULL = 'refs/pull/9/head';
const EXTRACTOR = 1;

const def = (name: string, kind: SymbolDefinition['kind'], line: number, endLine: number, container: string | null = null): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine,
  container,
  signature: `${kind} ${name}`,
});
const occ = (name: string, line: number, start: number, role: SymbolOccurrence['role'] = 'reference'): SymbolOccurrence => ({ name, line, start, end: start + name.length, role });

function symbols(definitions: SymbolDefinition[], occurrences: SymbolOccurrence[], extractor = EXTRACTOR, language: string | null = 'TypeScript'): BlobSymbols {
  return { extractor, language, status: 'parsed', definitions, occurrences };
}

/** A TypeScript file whose symbols are the given ones (its content only has to make its blob unique). */
function codeFile(repositoryId: number, path: string, content: string, blobSymbols: BlobSymbols | undefined, more: Partial<FileDocument> = {}): FileDocument {
  return makeFile({ repositoryId, path, content, ...(blobSymbols ? { symbols: blobSymbols } : {}), ...more });
}

export function describeSymbolCases(ctx: ConformanceContext): void {
  describe('symbols stored per blob', () => {
    const names = async (snapshots: Snapshot[], name: string) =>
      (await ctx.store().findSymbols(snapshots, { match: 'exact', name, limit: 50 })).map((hit) => `${hit.snapshotIndex}:${hit.path}:${hit.definition.line}`);

    it('written with the content: definitions by name, container and pattern, an outline and near names; occurrences are not kept', async () => {
      const repositoryId = ctx.repositoryId();
      const storeSymbols = symbols(
        [def('Store', 'class', 1, 9), def('put', 'method', 2, 4, 'Store'), def('get', 'method', 5, 8, 'Store'), def('storeHelper', 'function', 11, 12)],
        [occ('Store', 1, 13, 'definition'), occ('put', 2, 2, 'definition'), occ('get', 5, 2, 'definition'), occ('storeHelper', 11, 16, 'definition'), occ('Store', 12, 13)],
      );
      const a = codeFile(repositoryId, 'src/store.ts', 'export class Store { /* a */ }\n', storeSymbols);
      const b = codeFile(
        repositoryId,
        'src/use.ts',
        'import { Store } from "./store";\n',
        symbols([def('main', 'function', 3, 6), def('put', 'function', 7, 7)], [occ('Store', 1, 9, 'import'), occ('Store', 4, 14), occ('put', 5, 2)]),
      );
      const plain = codeFile(repositoryId, 'README.md', '# readme\n', undefined);
      await ctx.write([a, b, plain].map(put));
      const main: Snapshot = { repositoryId, ref: MAIN, generation: 1 };
      const store = ctx.store();

      const [hit] = await store.findSymbols([main], { match: 'exact', name: 'Store', limit: 10 });
      expect(hit).toEqual({ snapshotIndex: 0, path: 'src/store.ts', blobSha: a.blobSha, commitSha: a.commitSha, language: 'TypeScript', flags: a.flags, definition: storeSymbols.definitions[0] });
      expect(await names([main], 'put')).toEqual(['0:src/store.ts:2', '0:src/use.ts:7']);
      expect((await store.findSymbols([main], { match: 'exact', name: 'put', container: 'Store', limit: 10 })).map((h) => h.path)).toEqual(['src/store.ts']);
      expect((await store.findSymbols([main], { match: 'exact', name: 'put', kind: 'function', limit: 10 })).map((h) => h.path)).toEqual(['src/use.ts']);
      expect((await store.findSymbols([main], { match: 'exact', name: 'put', pathPrefix: 'src/u', limit: 10 })).map((h) => h.path)).toEqual(['src/use.ts']);
      expect(await store.findSymbols([main], { match: 'exact', name: 'put', language: 'Python', limit: 10 })).toEqual([]);
      expect(await store.findSymbols([main], { match: 'exact', name: 'store', limit: 10 })).toEqual([]);
      expect((await store.findSymbols([main], { match: 'pattern', pattern: '*tore*', limit: 10 })).map((h) => h.definition.name)).toEqual(['Store', 'storeHelper']);
      expect((await store.findSymbols([main], { match: 'pattern', pattern: 'g?t', limit: 10 })).map((h) => h.definition.name)).toEqual([]);
      expect(await store.findSymbols([main], { match: 'exact', name: 'put', limit: 1 })).toHaveLength(1);

      const outline = await store.fileSymbols(main, 'src/store.ts');
      const { occurrences: _occurrences, ...expectedOutline } = storeSymbols;
      expect(outline).toEqual({ path: 'src/store.ts', blobSha: a.blobSha, commitSha: a.commitSha, language: 'TypeScript', flags: a.flags, symbols: expectedOutline });
      expect(await store.fileSymbols(main, 'README.md')).toMatchObject({ path: 'README.md', symbols: null });
      expect(await store.fileSymbols(main, 'src/missing.ts')).toBeNull();
      // Document reads never carry symbols: they are read through the symbol reads only.
      expect(await store.getFile(main, 'src/store.ts')).not.toHaveProperty('symbols');

      expect((await store.symbolNamesLike([main], 'store', 10)).sort()).toEqual(['Store', 'storeHelper']);
      expect((await store.symbolNamesLike([main], 'helper', 10)).sort()).toEqual(['storeHelper']);
      // Any string is asked without failing: a NUL (which ends a C string) or a quote.
      for (const odd of ['st\u0000ore', 'sto\u0000', '"store', 'store\u0000helper']) expect(await store.symbolNamesLike([main], odd, 10)).toEqual(expect.any(Array));
      // The first names, ranked: one a case away settles it; a second is only a name containing
      // the asked one, never the nearer name another repository defines.
      const elsewhere = codeFile(ctx.repositoryId(), 'src/stores.ts', 'export class Stores {}\n', symbols([def('Stores', 'class', 1, 1)], [occ('Stores', 1, 13, 'definition')]));
      await ctx.write([put(elsewhere)]);
      expect(await store.symbolNamesLike([main], 'store', 1)).toEqual(['Store']);
      expect(await store.symbolNamesLike([main], 'store', 2)).toEqual(['Store', 'storeHelper']);
      expect(await store.symbolNamesLike([main], 'stor', 2)).toEqual(['Store', 'storeHelper']);
      expect(await store.symbolNamesLike([{ repositoryId: elsewhere.repositoryId, ref: MAIN, generation: 1 }], 'store', 2)).toEqual(['Stores']);
      // A nearer name that only a ref not asked defines, in the same repository, seems to settle
      // the first names before the visibility check and never does after it.
      const branchOnly = codeFile(repositoryId, 'src/storex.ts', 'export class Storex {}\n', symbols([def('Storex', 'class', 1, 1)], [occ('Storex', 1, 13, 'definition')]), { ref: FEATURE });
      await ctx.write([put(branchOnly)]);
      expect(await store.symbolNamesLike([main], 'store', 2)).toEqual(['Store', 'storeHelper']);
      expect(await store.symbolNamesLike([main], 'storr', 10)).toEqual(['Store']);
      expect(await store.symbolNamesLike([{ repositoryId, ref: FEATURE, generation: 1 }], 'store', 2)).toEqual(['Storex']);

      const stored = await store.storedSymbols(
        [
          { blobSha: a.blobSha, language: 'TypeScript' },
          { blobSha: plain.blobSha, language: 'Markdown' },
        ],
        EXTRACTOR,
      );
      expect([...stored.keys()]).toEqual([a.blobSha]);
      // The put carried occurrences; storage keeps none (find_references parses when asked).
      expect(stored.get(a.blobSha)).toEqual({ ...storeSymbols, occurrences: [] });
      expect((await store.storedSymbols([{ blobSha: a.blobSha, language: 'TypeScript' }], EXTRACTOR + 1)).size).toBe(0);
      expect((await store.storedSymbols([{ blobSha: a.blobSha, language: 'JavaScript' }], EXTRACTOR)).size).toBe(0);
    });

    it('visible exactly with the version that defines them: across flips, retirement and pruning', async () => {
      const repositoryId = ctx.repositoryId();
      const v1 = codeFile(repositoryId, 'src/phase.ts', 'function alphaFn() {}\n', symbols([def('alphaFn', 'function', 1, 1)], [occ('alphaFn', 1, 9, 'definition')]));
      const v2 = codeFile(repositoryId, 'src/phase.ts', 'function betaFn() {}\n', symbols([def('betaFn', 'function', 1, 1)], [occ('betaFn', 1, 9, 'definition')]), { fromGeneration: 2 });
      await ctx.write([put(v1)]);
      await ctx.write([put(v2), retire(v1, 2)]);
      const at = (generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });
      // Generation 2 is written but a reader pinned to 1 (not flipped yet) sees only 1.
      expect(await names([at(1)], 'alphaFn')).toEqual(['0:src/phase.ts:1']);
      expect(await names([at(1)], 'betaFn')).toEqual([]);
      expect(await names([at(2)], 'alphaFn')).toEqual([]);
      expect(await names([at(2)], 'betaFn')).toEqual(['0:src/phase.ts:1']);
      expect((await ctx.store().fileSymbols(at(1), 'src/phase.ts'))?.symbols?.definitions.map((d) => d.name)).toEqual(['alphaFn']);

      // Deleted at generation 3: nothing is found there, generation 2 still finds it.
      await ctx.write([retire(v2, 3)]);
      expect(await names([at(3)], 'betaFn')).toEqual([]);
      expect(await ctx.store().fileSymbols(at(3), 'src/phase.ts')).toBeNull();
      expect(await ctx.store().symbolNamesLike([at(3)], 'betaFn', 10)).toEqual([]);
      expect(await names([at(2)], 'betaFn')).toEqual(['0:src/phase.ts:1']);

      // Pruned: the first version's blob goes, with its symbols.
      await ctx.store().pruneRetired(repositoryId, MAIN, 2);
      await ctx.store().refresh();
      expect(await names([at(1)], 'alphaFn')).toEqual([]);
      expect((await ctx.store().storedSymbols([{ blobSha: v1.blobSha, language: 'TypeScript' }], EXTRACTOR)).size).toBe(0);
      expect(await names([at(2)], 'betaFn')).toEqual(['0:src/phase.ts:1']);
    });

    it('near names after the file that first defined them changed: offered while a visible version defines them', async () => {
      const repositoryId = ctx.repositoryId();
      const version = (names: string[], generation: number) =>
        codeFile(
          repositoryId,
          'src/widget.ts',
          names.map((name) => `function ${name}() {}\n`).join(''),
          symbols(
            names.map((name, i) => def(name, 'function', i + 1, i + 1)),
            names.map((name, i) => occ(name, i + 1, 9, 'definition')),
          ),
          { fromGeneration: generation },
        );
      const v1 = version(['widgetFn', 'retiredFn'], 1);
      const v2 = version(['widgetFn', 'addedFn'], 2);
      await ctx.write([put(v1)]);
      await ctx.write([put(v2), retire(v1, 2)]);
      const at = (generation: number): Snapshot => ({ repositoryId, ref: MAIN, generation });
      expect(await ctx.store().symbolNamesLike([at(1)], 'widgetFnn', 5)).toEqual(['widgetFn']);
      expect(await ctx.store().symbolNamesLike([at(1)], 'retiredFnn', 5)).toEqual(['retiredFn']);
      // Generation 2: the first version is gone, the second still defines widgetFn.
      expect(await ctx.store().symbolNamesLike([at(2)], 'widgetFnn', 5)).toEqual(['widgetFn']);
      expect(await ctx.store().symbolNamesLike([at(2)], 'retiredFnn', 5)).toEqual([]);
      expect(await ctx.store().symbolNamesLike([at(2)], 'addedFnn', 5)).toEqual(['addedFn']);
      await ctx.store().pruneRetired(repositoryId, MAIN, 2);
      await ctx.store().refresh();
      expect(await ctx.store().symbolNamesLike([at(2)], 'widgetFnn', 5)).toEqual(['widgetFn']);
    });

    it('a blob shared by refs and repositories: a deleted ref or repository takes only its own', async () => {
      const repositoryId = ctx.repositoryId();
      const other = ctx.repositoryId();
      const shared = symbols([def('sharedFn', 'function', 1, 3)], [occ('sharedFn', 1, 9, 'definition')]);
      const file = (ref: string, id = repositoryId) => codeFile(id, 'lib/shared.ts', 'function sharedFn() {}\n', shared, { ref });
      await ctx.write([put(file(MAIN)), put(file(FEATURE)), put(file(MAIN, other))]);
      const main: Snapshot = { repositoryId, ref: MAIN, generation: 1 };
      const feature: Snapshot = { repositoryId, ref: FEATURE, generation: 1 };
      const elsewhere: Snapshot = { repositoryId: other, ref: MAIN, generation: 1 };
      expect(await names([main, feature, elsewhere], 'sharedFn')).toEqual(['0:lib/shared.ts:1', '1:lib/shared.ts:1', '2:lib/shared.ts:1']);

      await ctx.store().deleteRef(repositoryId, FEATURE);
      await ctx.store().refresh();
      expect(await names([main, feature], 'sharedFn')).toEqual(['0:lib/shared.ts:1']);
      // A snapshot that finds nothing before one that does: each hit keeps its own snapshot's index.
      expect(await names([feature, main], 'sharedFn')).toEqual(['1:lib/shared.ts:1']);

      await ctx.store().deleteRepository(repositoryId);
      await ctx.store().refresh();
      expect(await names([main, elsewhere], 'sharedFn')).toEqual(['1:lib/shared.ts:1']);
      // Another repository's copy keeps its symbols: the blob is not parsed again.
      expect((await ctx.store().storedSymbols([{ blobSha: file(MAIN).blobSha, language: 'TypeScript' }], EXTRACTOR)).get(file(MAIN).blobSha)).toEqual({ ...shared, occurrences: [] });

      await ctx.store().deleteRepository(other);
      await ctx.store().refresh();
      expect((await ctx.store().storedSymbols([{ blobSha: file(MAIN).blobSha, language: 'TypeScript' }], EXTRACTOR)).size).toBe(0);
    });

    it('near names from more blobs than one read takes: names containing the asked one, the visible ones only', async () => {
      const repositoryId = ctx.repositoryId();
      const gadget = (i: number, more: Partial<FileDocument> = {}) =>
        codeFile(repositoryId, `src/gadget${i}.ts`, `export function gadget${i}() {}\n`, symbols([def(`gadget${i}`, 'function', 1, 1)], [occ(`gadget${i}`, 1, 16, 'definition')]), more);
      // 201 blobs hold a name containing "adge" (none is two edits near it); gadget0 only on a ref not asked.
      await ctx.write([put(gadget(0, { ref: FEATURE })), ...Array.from({ length: 200 }, (_, i) => put(gadget(i + 1)))]);
      const offered = await ctx.store().symbolNamesLike([{ repositoryId, ref: MAIN, generation: 1 }], 'adge', 5);
      // The fewest extra letters first, then by name: single digits, whichever of the 200 an index reads.
      expect(offered).toHaveLength(5);
      expect(offered.every((name) => /^gadget[1-9]$/.test(name))).toBe(true);
      expect(offered).toEqual([...offered].sort());
      expect(await ctx.store().symbolNamesLike([{ repositoryId, ref: FEATURE, generation: 1 }], 'adge', 5)).toEqual(['gadget0']);
    });

    it('near names with white space or characters beyond the basic plane inside them', async () => {
      const repositoryId = ctx.repositoryId();
      const flag = codeFile(repositoryId, 'src/flag.ts', 'class Flag {}\n', symbols([def('operator bool', 'method', 1, 1, 'Flag'), def('\u{1D49C}lpha\u{1D4B7}eta', 'function', 2, 2)], []));
      await ctx.write([put(flag)]);
      const main = { repositoryId, ref: MAIN, generation: 1 };
      expect(await ctx.store().symbolNamesLike([main], 'operator boool', 5)).toEqual(['operator bool']);
      expect(await ctx.store().symbolNamesLike([main], 'operatr bool', 5)).toEqual(['operator bool']);
      expect(await ctx.store().symbolNamesLike([main], 'tor bo', 5)).toEqual(['operator bool']);
      expect(await ctx.store().symbolNamesLike([main], '\u{1D49C}lphaa\u{1D4B7}eta', 5)).toEqual(['\u{1D49C}lpha\u{1D4B7}eta']);
    });

    it('near names a letter away: among many names of nearer length sharing its pieces, and short ones with a letter doubled', async () => {
      const repositoryId = ctx.repositoryId();
      // 120 names of the asked name's length holding `load` or `erator`, each nearer by length than
      // `loadIterator`: they fill the 50 nearest lengths of each piece of `loadItterator`.
      const crowd = Array.from({ length: 60 }, (_, i) => [`load${String(i).padStart(2, '0')}xxxxxxx`, `x${String(i).padStart(2, '0')}xxxxerator`]).flat();
      const names = ['loadIterator', 'Bus', 'Pick', 'Sink', ...crowd];
      await ctx.write(names.map((name, i) => put(codeFile(repositoryId, `src/near${i}.ts`, `export function ${name}() {}\n`, symbols([def(name, 'function', 1, 1)], [])))));
      const main = { repositoryId, ref: MAIN, generation: 1 };
      expect((await ctx.store().symbolNamesLike([main], 'loadItterator', 5))[0]).toBe('loadIterator');
      // Four or five characters with one doubled: no piece of three characters is left whole.
      expect((await ctx.store().symbolNamesLike([main], 'buus', 5))[0]).toBe('Bus');
      expect((await ctx.store().symbolNamesLike([main], 'Piick', 5))[0]).toBe('Pick');
      expect((await ctx.store().symbolNamesLike([main], 'siink', 5))[0]).toBe('Sink');
    });

    it('a layered ref (pull request) sees its own symbols and the unshadowed underlay at its generation', async () => {
      const repositoryId = ctx.repositoryId();
      const one = (name: string) => symbols([def(name, 'function', 1, 1)], [occ(name, 1, 9, 'definition'), occ('commonRef', 2, 0)]);
      const kept = codeFile(repositoryId, 'src/kept.ts', 'function keptFn() {}\n', one('keptFn'));
      const gone = codeFile(repositoryId, 'src/gone.ts', 'function goneFn() {}\n', one('goneFn'));
      const changedBase = codeFile(repositoryId, 'src/changed.ts', 'function baseFn() {}\n', one('baseFn'));
      const changedPull = codeFile(repositoryId, 'src/changed.ts', 'function pullFn() {}\n', one('pullFn'), { ref: PULL });
      const added = codeFile(repositoryId, 'src/added.ts', 'function addedFn() {}\n', one('addedFn'), { ref: PULL });
      const laterBase = codeFile(repositoryId, 'src/kept.ts', 'function laterFn() {}\n', one('laterFn'), { fromGeneration: 2 });
      await ctx.write([put(kept), put(gone), put(changedBase), put(changedPull), put(added), retire(kept, 2), put(laterBase)]);
      const pull: Snapshot = { repositoryId, ref: PULL, generation: 1, underlay: { ref: MAIN, generation: 1, shadowed: ['src/changed.ts', 'src/gone.ts', 'src/added.ts'] } };
      expect(await names([pull], 'keptFn')).toEqual(['0:src/kept.ts:1']);
      expect(await names([pull], 'laterFn')).toEqual([]);
      expect(await names([pull], 'goneFn')).toEqual([]);
      expect(await names([pull], 'baseFn')).toEqual([]);
      expect(await names([pull], 'pullFn')).toEqual(['0:src/changed.ts:1']);
      expect(await names([pull], 'addedFn')).toEqual(['0:src/added.ts:1']);
      expect((await ctx.store().fileSymbols(pull, 'src/kept.ts'))?.symbols?.definitions.map((d) => d.name)).toEqual(['keptFn']);
      expect(await ctx.store().fileSymbols(pull, 'src/gone.ts')).toBeNull();
      expect((await ctx.store().symbolNamesLike([pull], 'fn', 10)).sort()).toEqual(['addedFn', 'keptFn', 'pullFn']);
    });

    it('a blob is parsed once: a put without symbols keeps them, a newer extractor replaces them', async () => {
      const repositoryId = ctx.repositoryId();
      const first = symbols([def('onceFn', 'function', 1, 1), def('goneFn', 'function', 2, 2)], [occ('onceFn', 1, 9, 'definition')]);
      const newer = symbols([def('onceFn', 'function', 1, 2)], [occ('onceFn', 1, 9, 'definition')], EXTRACTOR + 1);
      await ctx.write([put(codeFile(repositoryId, 'a.ts', 'function onceFn() {}\n', first))]);
      // The same blob at another path, written without symbols (the indexer found them stored).
      await ctx.write([put(codeFile(repositoryId, 'b.ts', 'function onceFn() {}\n', undefined))]);
      const main: Snapshot = { repositoryId, ref: MAIN, generation: 1 };
      expect(await names([main], 'onceFn')).toEqual(['0:a.ts:1', '0:b.ts:1']);
      await ctx.write([put(codeFile(repositoryId, 'a.ts', 'function onceFn() {}\n', newer))]);
      const hits = await ctx.store().findSymbols([main], { match: 'exact', name: 'onceFn', limit: 10 });
      expect(hits.map((h) => `${h.path}:${h.definition.endLine}`)).toEqual(['a.ts:2', 'b.ts:2']);
      // A name the older extractor found and the newer does not is found no more, by name or pattern.
      expect(await names([main], 'goneFn')).toEqual([]);
      expect((await ctx.store().findSymbols([main], { match: 'pattern', pattern: '*Fn', limit: 10 })).map((h) => h.definition.name)).toEqual(['onceFn', 'onceFn']);
    });
  });
  describeSymbolRankingCases(ctx);
}
