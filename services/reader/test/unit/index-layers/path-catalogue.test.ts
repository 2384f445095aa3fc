import fc from 'fast-check';
import { ancestorsOf, compareCodePoints, nameOf } from '@gitdex/terms';
import { SqliteIndexStore } from '@gitdex/sqlite';
import type { FileSummary, IndexStore } from '@gitdex/ports';
import { PathCatalogue } from '../../../src/index-layers/catalogue/path-catalogue';
import { loadCatalogue, loadSummaries } from '../../../src/index-layers/catalogue/load';
import { suggestQuery } from '../../../src/suggest/candidates';
import { AWKWARD_PATHS, expectCatalogueMatchesIndex } from '../../support/catalogue-equivalence';
import { seedRepository } from '../../support/documents';
import { loadPaths } from '../../support/suggest-cases';

describe('PathCatalogue answers suggestCandidates and listings as the index does', () => {
  let index: IndexStore;
  afterEach(async () => index?.close());

  // Real trees on the real SQLite adapter (the Elasticsearch one: test/integration/catalogue-elasticsearch.test.ts).
  test.each([
    ['kafkajs', { suggestions: true }],
    ['zod', { suggestions: true }],
    ['pino', { listings: true }],
    ['mcp-sdk', { listings: true }],
  ])('%s: the same answers as SQLite (%j)', async (tree, what) => {
    const paths = loadPaths(tree).concat(AWKWARD_PATHS);
    index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 7, fullName: `o/${tree}`, files: Object.fromEntries(paths.map((p) => [p, `${p}\n`])) });
    await expectCatalogueMatchesIndex(index, { repositoryId: 7, ref: 'refs/heads/main', generation: 1 }, paths, what);
  });

  test('a snapshot of more than one page of paths (10,000 a page): the same answers as SQLite', async () => {
    const paths = Array.from({ length: 10_050 }, (_, i) => `pkg${i % 37}/${i % 5 === 0 ? 'src/' : ''}module${i}.${['ts', 'js', 'md'][i % 3]}`).concat(AWKWARD_PATHS);
    index = new SqliteIndexStore({ file: ':memory:' });
    await index.ensureReady();
    await seedRepository(index, { id: 8, fullName: 'o/paged', files: Object.fromEntries(paths.map((p) => [p, '\n'])) });
    const snapshot = { repositoryId: 8, ref: 'refs/heads/main', generation: 1 };
    const catalogue = await loadCatalogue(index, snapshot, { maxFiles: 100_000 });
    expect(catalogue?.size).toBe(paths.length);
    for (const query of ['pkg3/module9999.ts', 'module10049', 'src/module5.md', '\u{1F600}.md']) {
      const request = { ...suggestQuery(query), limit: 20 };
      expect({ query, candidates: catalogue!.candidates(request) }).toEqual({ query, candidates: await index.suggestCandidates(snapshot, request) });
    }
    for (const depth of [1, 2]) {
      const scope = { ...snapshot, folder: '', depth };
      expect(catalogue!.listFolders(scope)).toEqual(await index.listFolders(scope));
    }
    expect(await loadCatalogue(index, snapshot, { maxFiles: 10_049 })).toBeNull();
  });

  test('code point order: a character above U+FFFF sorts after U+FF01, as in UTF-8', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFF01').toBe(true);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'ab')).toBe(0);
  });

  test('ties at the cut-off are taken in path order, and a query is forgotten before the next', () => {
    const catalogue = new PathCatalogue();
    catalogue.add(['a/x.ts', 'b/x.ts', 'c/x.ts', 'd/y.ts'].map((path) => ({ path, blobSha: 'sha' })));
    catalogue.seal();
    expect(catalogue.candidates({ ...suggestQuery('x.ts'), limit: 2 }).map((c) => c.path)).toEqual(['a/x.ts', 'b/x.ts']);
    const again = catalogue.candidates({ ...suggestQuery('y.ts'), limit: 1 });
    expect(again).toEqual([{ path: 'd/y.ts', blobSha: 'sha', score: expect.any(Number) }]);
    expect(again[0]!.score).toBe(catalogue.candidates({ ...suggestQuery('y.ts'), limit: 1 })[0]!.score);
    expect(catalogue.candidates({ ...suggestQuery('qqq'), limit: 5 })).toEqual([]);
  });

  test('file listings wait for every summary, and summaries of other files than the paths are refused', () => {
    const summary = (path: string, blobSha = `sha-${path}`) => ({ path, blobSha, depth: 2, ancestors: ancestorsOf(path) }) as FileSummary;
    const catalogue = new PathCatalogue();
    catalogue.add(['a/x.ts', 'b/x.ts', 'c/x.ts'].map((path) => ({ path, blobSha: `sha-${path}` })));
    catalogue.seal();
    const everything = { repositoryId: 1, ref: 'refs/heads/main', generation: 1, folder: '', depth: 10 };
    expect(catalogue.listsFiles).toBe(false);
    expect(() => catalogue.listFiles(everything, null, 10)).toThrow(/summary/);
    expect(catalogue.listFolders(everything)).toEqual([
      { path: 'a', fileCount: 1 },
      { path: 'b', fileCount: 1 },
      { path: 'c', fileCount: 1 },
    ]);
    expect(catalogue.addSummaries([summary('a/x.ts'), summary('c/x.ts')])).toBe(false);
    expect(catalogue.addSummaries([summary('a/x.ts'), summary('b/x.ts', 'another blob')])).toBe(false);
    expect(catalogue.summarised).toBe(0);
    expect(catalogue.addSummaries([summary('a/x.ts'), summary('b/x.ts')])).toBe(true);
    expect(catalogue.listsFiles).toBe(false);
    expect(catalogue.addSummaries([summary('c/x.ts'), summary('d/x.ts')])).toBe(false);
    expect(catalogue.addSummaries([summary('c/x.ts')])).toBe(true);
    expect(catalogue.listsFiles).toBe(true);
    expect(catalogue.listFiles(everything, 'a/x.ts', 10)).toEqual({ files: [summary('b/x.ts'), summary('c/x.ts')], total: 3 });
  });

  /** Folder and file names with the case humps, separators and characters that tokens and orders turn on. */
  const segment = fc.constantFrom('src', 'Src', 'lib', 'HttpServer', 'http-server', 'v2', 'a.b', 'ΑΣ', 'ü', '\u{1F600}', '\uFF01', 'x_y', 'API', 'APIClient', '_', '.git');
  const tree = fc
    .uniqueArray(
      fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/')),
      { minLength: 1, maxLength: 40 },
    )
    // A path is a file or a folder, never both (as in a git tree).
    .map((paths) => paths.filter((path) => !paths.some((other) => other.startsWith(`${path}/`))));

  test('random trees: folders counted, tokens split and files listed as SQLite does, whatever the nesting', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (paths) => {
        const store = new SqliteIndexStore({ file: ':memory:' });
        try {
          await store.ensureReady();
          await seedRepository(store, { id: 9, fullName: 'o/random', files: Object.fromEntries(paths.map((p) => [p, '\n'])) });
          const snapshot = { repositoryId: 9, ref: 'refs/heads/main', generation: 1 };
          const catalogue = (await loadCatalogue(store, snapshot, { maxFiles: 1_000 }))!;
          expect(await loadSummaries(store, catalogue, snapshot)).toBe(true);
          for (const folder of [...new Set(paths.flatMap(ancestorsOf))]) {
            for (const depth of [1, 64]) {
              const scope = { ...snapshot, folder, depth };
              expect({ scope, folders: catalogue.listFolders(scope) }).toEqual({ scope, folders: await store.listFolders(scope) });
              expect({ scope, files: catalogue.listFiles(scope, null, 1_000) }).toEqual({ scope, files: await store.listFiles(scope, null, 1_000) });
            }
          }
          for (const query of paths.flatMap((path) => [path, nameOf(path), path.split('/')[0] as string])) {
            const request = { ...suggestQuery(query), limit: 10 };
            expect({ query, candidates: catalogue.candidates(request) }).toEqual({ query, candidates: await store.suggestCandidates(snapshot, request) });
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
