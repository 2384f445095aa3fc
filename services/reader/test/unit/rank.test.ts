import Fuse from 'fuse.js';
import { rankPaths, scorePathPair } from '../../src/suggest/rank';
import { editDistance, editDistances } from '../../src/suggest/distance';
import { isResolvable, loadPaths, makeCases } from '../support/suggest-cases';
import { candidatesFor } from '../support/candidates';

const REPO = [
  'README.md',
  'package.json',
  'src/index.ts',
  'src/server/http-server.ts',
  'src/server/routes.ts',
  'src/utils/helpers.ts',
  'src/utils/format.ts',
  'src/components/Button.tsx',
  'src/components/ButtonGroup.tsx',
  'src/components/button.test.tsx',
  'lib/helpers.js',
  'docs/getting-started.md',
  'test/server.test.ts',
];
const top = (query: string) => rankPaths(query, REPO, 3)[0];

describe('editDistances', () => {
  test('counts transpositions, insertions, deletions and substitutions as one edit', () => {
    expect(editDistance('helpers', 'hlepers')).toBe(1);
    expect(editDistance('helpers', 'helpers')).toBe(0);
    expect(editDistance('helpers', 'helper')).toBe(1);
    expect(editDistance('helpers', 'helpxers')).toBe(1);
    expect(editDistance('helpers', 'helpars')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  test('measures the distance to the closest prefix for names typed so far', () => {
    expect(editDistances('serv', 'server.ts')).toMatchObject({ prefix: 0, prefixLength: 4 });
    expect(editDistances('srev', 'server.ts').prefix).toBe(1);
  });
});

describe('rankPaths', () => {
  test.each([
    ['src/utils/helpers.ts', 'src/utils/helpers.ts', 'exact'],
    ['SRC/Utils/Helpers.TS', 'src/utils/helpers.ts', 'case'],
    ['src/utils/hlepers.ts', 'src/utils/helpers.ts', 'typo'],
    ['src/utils/helprs.ts', 'src/utils/helpers.ts', 'typo'],
    ['src/utils/helpeers.ts', 'src/utils/helpers.ts', 'typo'],
    ['src/utils/helpars.ts', 'src/utils/helpers.ts', 'typo'],
    ['src/utils/helpers.js', 'src/utils/helpers.ts', 'extension'],
    ['src/utils/helpers', 'src/utils/helpers.ts', 'prefix'],
    ['utils/helpers.js', 'src/utils/helpers.ts', 'extension'],
    ['src/server/http_server.ts', 'src/server/http-server.ts', 'style'],
    ['src/server/httpServer.ts', 'src/server/http-server.ts', 'style'],
    ['http-server.ts', 'src/server/http-server.ts', 'name'],
    ['src/http-server.ts', 'src/server/http-server.ts', 'folder'],
    ['lib/server/http-server.ts', 'src/server/http-server.ts', 'folder'],
    ['src/serv', 'src/server/routes.ts', 'prefix'],
    ['src/components/Butt', 'src/components/Button.tsx', 'prefix'],
    ['ButtonGr', 'src/components/ButtonGroup.tsx', 'prefix'],
    ['getting-sta', 'docs/getting-started.md', 'prefix'],
  ])('%s → %s (%s)', (query, expected, reason) => {
    const best = top(query);
    expect(best?.path).toBe(expected);
    expect(best?.reason).toBe(reason);
  });

  test('scores are 0..1, best first, ties in path order', () => {
    const ranked = rankPaths('helpers', REPO, 10);
    expect(ranked.map((r) => r.path).slice(0, 2)).toEqual(['lib/helpers.js', 'src/utils/helpers.ts']);
    for (const r of ranked) expect(r.score).toBeGreaterThan(0);
    for (let i = 1; i < ranked.length; i += 1) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
    expect(rankPaths('helpers', [...REPO].reverse(), 10)).toEqual(ranked);
  });

  test('an exact name in another folder beats a similar name in the same folder', () => {
    expect(top('lib/format.ts')?.path).toBe('src/utils/format.ts');
  });

  test('a full name with an extension is not taken for a name typed so far', () => {
    expect(scorePathPair('test/meta.js', 'lib/meta.js').score).toBeGreaterThan(scorePathPair('test/meta.js', 'test/metadata.test.js').score);
  });

  test('ignores duplicates and a leading slash; limit bounds the result', () => {
    expect(rankPaths('/src/index.ts', ['src/index.ts', 'src/index.ts'], 5)).toHaveLength(1);
    expect(rankPaths('s', REPO, 2)).toHaveLength(2);
    expect(rankPaths('s', REPO, 0)).toHaveLength(0);
  });
});

describe('accuracy on misspelt, partial, misplaced and restyled paths of real trees', () => {
  // Cases with one possible answer: another file of the same name or another completion makes a coin toss.
  test.each(['kafkajs', 'pino', 'mcp-sdk', 'zod'])('%s: top-1 on resolvable cases >= 95%% (candidates as the index gives them)', (name) => {
    const paths = loadPaths(name);
    const cases = makeCases(paths, { perKind: 25, seed: 11 }).filter((c) => isResolvable(c, paths));
    const hits = cases.filter((c) => rankPaths(c.query, candidatesFor(paths, c.query, 200), 1)[0]?.path === c.expected).length;
    expect(cases.length).toBeGreaterThan(150);
    expect(hits / cases.length).toBeGreaterThanOrEqual(0.95);
  });

  test('pino, every case (ambiguous ones included): top-1 >= 93%, ahead of fuse.js', () => {
    const paths = loadPaths('pino');
    const cases = makeCases(paths, { perKind: 12, seed: 5 });
    const fuse = new Fuse(paths);
    const ours = cases.filter((c) => rankPaths(c.query, paths, 1)[0]?.path === c.expected).length;
    const theirs = cases.filter((c) => fuse.search(c.query, { limit: 1 })[0]?.item === c.expected).length;
    expect(ours / cases.length).toBeGreaterThanOrEqual(0.93);
    expect(ours).toBeGreaterThan(theirs);
  });
});
