// The frozen held-out suggestion set (bench/suggest-heldout): data that holds together, and
// right answers decided by rules that owe nothing to the ranker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHeldOut } from '../../bench/suggest-heldout/load';
import { answersIn, FIT_RULES, KINDS, makeHeldOutCases, withinOneTypo } from '../../bench/suggest-heldout/rules';

describe('held-out suggestion rules', () => {
  it('takes one swapped, dropped, extra or wrong letter as one typo, and no more', () => {
    expect(withinOneTypo('inflate', 'inflate')).toBe(true);
    expect(withinOneTypo('inflate', 'ifnlate')).toBe(true);
    expect(withinOneTypo('inflate', 'inflat')).toBe(true);
    expect(withinOneTypo('inflate', 'inflatte')).toBe(true);
    expect(withinOneTypo('inflate', 'deflate')).toBe(false);
    expect(withinOneTypo('inflate', 'iflate')).toBe(true);
    expect(withinOneTypo('ieflate', 'deflate')).toBe(true);
    expect(withinOneTypo('abcd', 'badc')).toBe(false);
  });

  it('counts every path a query fits equally as a right answer, case aside', () => {
    const paths = ['compress/flate/inflate.go', 'compress/flate/deflate.go', 'a/b/Util.java', 'x/b/Util.java', 'a/util.java'];
    const answers = answersIn(paths);
    expect(answers('typo', 'compress/flate/ieflate.go')).toEqual(['compress/flate/inflate.go', 'compress/flate/deflate.go']);
    expect(answers('name-only', 'util.java')).toEqual(['a/b/Util.java', 'x/b/Util.java', 'a/util.java']);
    expect(answers('missing-folder', 'a/Util.java')).toEqual(['a/b/Util.java']);
    expect(answers('stem-only', 'UTIL')).toEqual(['a/b/Util.java', 'x/b/Util.java', 'a/util.java']);
  });

  it('makes the same cases from the same paths and seed, each fitting the path it came from', () => {
    const paths = readFileSync(join(__dirname, '..', '..', 'bench', 'suggest-heldout', 'data', 'yaml.paths.txt'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const a = makeHeldOutCases(paths, { perKind: 3, seed: 5 });
    expect(makeHeldOutCases(paths, { perKind: 3, seed: 5 })).toEqual(a);
    expect(new Set(a.map((c) => c.kind))).toEqual(new Set(KINDS));
    for (const c of a) expect(c.answers).toContain(c.from);
  });

  it('owes nothing to the ranker: no import from the reader or the tuning generator', () => {
    const source = readFileSync(join(__dirname, '..', '..', 'bench', 'suggest-heldout', 'rules.ts'), 'utf8');
    expect(source).not.toMatch(/from '[^']*(reader|suggest-cases|contracts)/);
  });
});

describe('the frozen held-out set', () => {
  const trees = loadHeldOut();

  it('holds the trees nobody tuned on, with cases of every kind', () => {
    expect(trees.map((t) => t.name)).toEqual(expect.arrayContaining(['cpython-stdlib', 'go-stdlib', 'jdk-java.base']));
    expect(trees.reduce((n, t) => n + t.cases.length, 0)).toBeGreaterThan(2000);
    for (const t of trees) expect(new Set(t.cases.map((c) => c.kind)).size).toBe(KINDS.length);
  });

  it("gives each case the answers its kind's rule finds among the frozen paths", () => {
    for (const t of trees) {
      const answers = answersIn(t.paths);
      for (const c of t.cases) expect({ tree: t.name, query: c.query, answers: answers(c.kind, c.query) }).toEqual({ tree: t.name, query: c.query, answers: c.answers });
    }
    expect(Object.keys(FIT_RULES)).toEqual([...KINDS]);
  });
});
