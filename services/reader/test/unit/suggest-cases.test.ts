import { loadPaths, makeCaseSets, pathsFitting, type CaseKind } from '../support/suggest-cases';

// The cases the suggestion accuracy is measured on: the rule that decides which paths a
// query fits, and the generator's promise of one right answer per case.
const TREE = [
  'src/index.ts',
  'lib/index.ts',
  'src/utils/helpers.ts',
  'src/utils/helpers.js',
  'src/utils/helpers.d.ts',
  'src/utils/format.ts',
  'src/server/http-server.ts',
  'src/server/deep/routes.ts',
  'src/client/deep/routes.ts',
  'docs/getting-started.md',
];
const fitting = pathsFitting(TREE);

describe('pathsFitting', () => {
  test.each<[CaseKind, string, string[]]>([
    // One typo of any of the four kinds fits alike: a caller cannot tell which letter was meant.
    ['transpose', 'src/utils/hlepers.ts', ['src/utils/helpers.ts']],
    ['substitute', 'src/utils/formst.ts', ['src/utils/format.ts']],
    ['case', 'SRC/INDEX.TS', ['src/index.ts']],
    // The name with its last extension replaced: not helpers.d.ts, whose name before it is "helpers.d".
    ['extension', 'src/utils/helpers.mjs', ['src/utils/helpers.ts', 'src/utils/helpers.js']],
    ['no-extension', 'src/utils/helpers', ['src/utils/helpers.ts', 'src/utils/helpers.js']],
    ['basename-only', 'index.ts', ['src/index.ts', 'lib/index.ts']],
    ['wrong-folder', 'docs/index.ts', ['src/index.ts', 'lib/index.ts']],
    ['drop-folder', 'src/deep/routes.ts', ['src/server/deep/routes.ts', 'src/client/deep/routes.ts']],
    ['drop-folder', 'src/server/routes.ts', ['src/server/deep/routes.ts']],
    ['style', 'src/server/httpServer.ts', ['src/server/http-server.ts']],
    ['partial-path', 'src/utils/he', ['src/utils/helpers.ts', 'src/utils/helpers.js', 'src/utils/helpers.d.ts']],
    ['partial-name', 'getting-s', ['docs/getting-started.md']],
  ])('%s "%s" fits %j', (kind, query, expected) => {
    expect(fitting(kind, query).sort()).toEqual([...expected].sort());
  });
});

describe('makeCaseSets', () => {
  const paths = loadPaths('kafkajs');
  const sets = makeCaseSets(paths, { perKind: 10, seed: 3 });
  const fits = pathsFitting(paths);
  const lower = new Set(paths.map((p) => p.toLowerCase()));

  test('every one-answer case fits its own path only, and no query is itself a path', () => {
    for (const c of sets.oneAnswer) {
      expect(c.answers).toEqual([c.expected]);
      expect(fits(c.kind, c.query)).toEqual([c.expected]);
      if (c.kind !== 'case') expect(lower.has(c.query.toLowerCase())).toBe(false);
    }
  });

  test('every ambiguous case fits several paths, its own among them', () => {
    for (const c of sets.ambiguous) {
      expect(c.answers.length).toBeGreaterThan(1);
      expect(c.answers).toContain(c.expected);
      expect(fits(c.kind, c.query)).toEqual(c.answers);
    }
  });

  test('perKind one-answer cases of every kind the tree can make, the same for the same seed', () => {
    const counts = new Map<string, number>();
    for (const c of sets.oneAnswer) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    expect(counts.size).toBe(13);
    for (const n of counts.values()) expect(n).toBe(10);
    expect(makeCaseSets(paths, { perKind: 10, seed: 3 })).toEqual(sets);
  });
});
