/**
 * Conformance cases of rankedSymbols: for any `files`, ranking its hits gives the first `files`
 * definitions of the ranking of every definition findSymbols returns (find_symbol's order:
 * tier, nesting, folders, repository, path, line), and its total counts them all. Every page
 * size is tried, so an order wrong anywhere shows; tests sit between sources in path and depth
 * order, and the paths are ones where telling a test is easy to get wrong.
 */
import type { FileFlags, SymbolDefinition } from '@gitdex/contracts';
import type { Snapshot, SymbolHit } from '@gitdex/ports';
import { foldersOf, nestingOf, tierOf } from '@gitdex/terms';
import { MAIN, makeFile, put } from './index-store.fixtures';
import type { ConformanceContext } from './index-store.cases';

const FEATURE = 'refs/heads/feature';
const NAME = 'target';

const def = (line: number, container: string | null = null, kind: SymbolDefinition['kind'] = 'function', name = NAME): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine: line + 1,
  container,
  signature: `${kind} ${name}`,
});

/** find_symbol's ranking of an exact name's hits (services/reader/src/symbols/rank.ts), repositories named per snapshot. */
function rank(hits: SymbolHit[], repositories: string[]): SymbolHit[] {
  const key = (h: SymbolHit) => [tierOf(h.path, h.flags), nestingOf(h.definition.container), foldersOf(h.path)];
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...hits].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (
      ka.reduce((order, value, i) => order || value - (kb[i] as number), 0) ||
      text(repositories[a.snapshotIndex] as string, repositories[b.snapshotIndex] as string) ||
      text(a.path, b.path) ||
      a.definition.line - b.definition.line
    );
  });
}

const label = (h: SymbolHit) => `${h.snapshotIndex}:${h.path}:${h.definition.line}`;

/** Path → its definitions of the name (and flags when not plain source). */
const FILES: [string, SymbolDefinition[], Partial<FileFlags>?][] = [
  ['src/a.ts', [def(9, 'Outer'), def(20)]],
  ['src/deep/er/b.ts', [def(3)]],
  ['src/nested/only.ts', [def(4, 'A.B'), def(8, 'A')]],
  ['test/x.ts', [def(1)]],
  ['src/Tests/y.ts', [def(1)]],
  ['src/FIXTURES/f.ts', [def(1)]],
  ['src/__mocks__/m.ts', [def(1)]],
  ['src/contest/z.ts', [def(1)]],
  ['src/z.test.ts', [def(1)]],
  ['src/a.tests.ts', [def(2)]],
  ['src/a-spec.js', [def(3)]],
  ['src/latest.ts', [def(1)]],
  ['src/test.ts', [def(1)]],
  ['src/x.test.d.ts', [def(1)]],
  ['src/foo.spec.ts/inner.ts', [def(1)]],
  ['src/test_a.py', [def(1)]],
  ['src/mytest_a.py', [def(1)]],
  ['pkg/x_test.go', [def(1)]],
  ['pkg/xtest.go', [def(1)]],
  ['src/FooTest.java', [def(1)]],
  ['src/FooTest.JAVA', [def(1)]],
  ['src/FooTests.swift', [def(1)]],
  ['vendor/v.ts', [def(1)], { vendored: true }],
  ['test/gen.ts', [def(1)], { generated: true }],
  ['root.ts', [def(5, 'Outer'), def(6, null, 'class'), def(7, null, 'function', 'other')]],
];

export function describeSymbolRankingCases(ctx: ConformanceContext): void {
  describe('symbols ranked by the index (rankedSymbols)', () => {
    const repositoryId = ctx.repositoryId();
    const other = ctx.repositoryId();
    const main: Snapshot = { repositoryId, ref: MAIN, generation: 1 };
    const feature: Snapshot = { repositoryId, ref: FEATURE, generation: 1 };
    const elsewhere: Snapshot = { repositoryId: other, ref: MAIN, generation: 1 };

    beforeAll(async () => {
      const file = (id: number, path: string, definitions: SymbolDefinition[], flags: Partial<FileFlags> = {}, ref = MAIN, content = `// ${path}\n`) =>
        put(
          makeFile({
            repositoryId: id,
            ref,
            path,
            content,
            flags: { binary: false, vendored: false, generated: false, tooLarge: false, ...flags },
            symbols: { extractor: 1, language: 'TypeScript', status: 'parsed', definitions, occurrences: [] },
          }),
        );
      await ctx.write([
        ...FILES.map(([path, definitions, flags]) => file(repositoryId, path, definitions, flags)),
        // One blob at two paths, and the same path on another ref and in another repository.
        file(repositoryId, 'lib/copy.ts', [def(3)], {}, MAIN, '// src/deep/er/b.ts\n'),
        file(repositoryId, 'src/a.ts', [def(1)], {}, FEATURE, '// feature a\n'),
        file(repositoryId, 'src/other.ts', [def(30, 'X')], {}, FEATURE, '// feature other\n'),
        file(other, 'src/a.ts', [def(9, 'Outer'), def(20)]),
        file(other, 'spec/s.ts', [def(1)]),
        // A name defined mostly in tests, which come first by depth: its one source is read in a later batch.
        ...[1, 2, 3, 4, 5, 6].map((n) => file(repositoryId, `test/h${n}.ts`, [def(n, null, 'function', 'helper')])),
        file(repositoryId, 'src/deep/deeper/h.ts', [def(7, null, 'function', 'helper')]),
        file(repositoryId, 'vendor/h.ts', [def(8, null, 'function', 'helper')], { vendored: true }),
      ]);
    });

    const cases: {
      what: string;
      snapshots: Snapshot[];
      repositories: string[];
      name?: string;
      query?: { container?: string; kind?: SymbolDefinition['kind']; language?: string; pathPrefix?: string };
    }[] = [
      { what: 'one snapshot', snapshots: [main], repositories: ['o/main'] },
      { what: 'several snapshots, repositories named out of snapshot order', snapshots: [main, elsewhere, feature], repositories: ['o/b', 'o/a', 'o/b'] },
      { what: 'a kind', snapshots: [main, feature], repositories: ['o/b', 'o/b'], query: { kind: 'class' } },
      { what: 'a container', snapshots: [main, elsewhere], repositories: ['o/b', 'o/a'], query: { container: 'Outer' } },
      { what: 'a path prefix', snapshots: [main], repositories: ['o/main'], query: { pathPrefix: 'src/' } },
      { what: 'a name defined mostly in tests', snapshots: [main], repositories: ['o/main'], name: 'helper' },
    ];
    it.each(cases)('every page equals the ranking of all definitions: $what', async ({ snapshots, repositories, name = NAME, query = {} }) => {
      const store = ctx.store();
      const all = rank(await store.findSymbols(snapshots, { match: 'exact', name, ...query, limit: 1_000 }), repositories);
      expect(all.length).toBeGreaterThan(0);
      // Every page size: a wrong order anywhere shows at the size that cuts there.
      for (let files = 1; files <= all.length + 1; files += 1) {
        const page = await store.rankedSymbols(snapshots, { match: 'exact', name, ...query, files });
        expect({ files, total: page.total, first: rank(page.hits, repositories).slice(0, files).map(label) }).toEqual({
          files,
          total: all.length,
          first: all.slice(0, files).map(label),
        });
        // Only about a page is read: at most `files` files of each snapshot.
        expect(new Set(page.hits.map((h) => `${h.snapshotIndex}:${h.path}`)).size).toBeLessThanOrEqual(files * snapshots.length);
      }
    });

    it('tells tests, vendored and generated copies as tierOf does', async () => {
      const page = await ctx.store().rankedSymbols([main], { match: 'exact', name: NAME, files: 1_000 });
      const tiers = new Map(page.hits.map((h) => [h.path, tierOf(h.path, h.flags)]));
      expect(Object.fromEntries(tiers)).toMatchObject({
        'test/x.ts': 1,
        'src/Tests/y.ts': 1,
        'src/contest/z.ts': 0,
        'src/test.ts': 0,
        'src/x.test.d.ts': 0,
        'src/foo.spec.ts/inner.ts': 0,
        'src/FooTest.JAVA': 0,
        'vendor/v.ts': 2,
        'test/gen.ts': 2,
      });
      // The first files asked are exactly the best ones by tier: sources, then tests, then copies.
      const sources = [...tiers.values()].filter((t) => t === 0).length;
      const firstSources = await ctx.store().rankedSymbols([main], { match: 'exact', name: NAME, files: sources });
      expect(firstSources.hits.every((h) => tierOf(h.path, h.flags) === 0)).toBe(true);
      expect(new Set(firstSources.hits.map((h) => h.path)).size).toBe(sources);
    });

    it('finds nothing for a name no visible file defines, and reads no file when asked for none', async () => {
      expect(await ctx.store().rankedSymbols([main, feature], { match: 'exact', name: 'missingName', files: 10 })).toEqual({ hits: [], total: 0 });
      expect(await ctx.store().rankedSymbols([main], { match: 'exact', name: NAME, files: 0 })).toEqual({ hits: [], total: FILES.flatMap(([, d]) => d).filter((d) => d.name === NAME).length + 1 });
    });
  });
}
