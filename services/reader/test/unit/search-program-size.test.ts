import fc from 'fast-check';
import { RE2JS } from 're2js';
import { programSize } from '../../src/search/program-size';

/** The instructions re2js compiled (its program, less the fail and match instructions every program has). */
function compiledSize(pattern: string, flags = 0): number | null {
  try {
    const compiled = RE2JS.compile(pattern, flags) as unknown as { re2Input: { prog: { numInst(): number } } };
    return compiled.re2Input.prog.numInst() - 2;
  } catch {
    return null;
  }
}

/** RE2 syntax that counts: literals, classes, escapes, groups of every kind, alternation, every repetition. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', '.', '[^!]', '[a-z]', '[]x]', '\\w', '\\d', '\\pL', '\\p{Greek}', '\\x{41}', '\\Qa.b\\E', '[[:alpha:]]', '\\.', '^', '$', '\\b') },
    { weight: 1, arbitrary: tie('re').map((inner) => `(${inner})`) },
    { weight: 1, arbitrary: tie('re').map((inner) => `(?:${inner})`) },
    { weight: 1, arbitrary: tie('re').map((inner) => `(?P<n>${inner})`) },
    { weight: 1, arbitrary: tie('re').map((inner) => `(?i:${inner})`) },
  ),
  re: fc
    .array(fc.tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '*?', '{3}', '{2,}', '{0,7}', '{4,9}', '{1,30}', '{0,0}')), { minLength: 1, maxLength: 4 })
    .chain((parts) => fc.constantFrom('', '|b', '|(?i)c').map((alt) => parts.map(([a, r]) => a + r).join('') + alt)),
})).re;

describe('programSize', () => {
  // Up to two less: an empty repetition (`x{0,0}`) compiles to an instruction that matches nothing.
  test('never counts fewer instructions than re2js compiles (up to two), for any pattern it accepts', () => {
    fc.assert(
      fc.property(pattern, fc.boolean(), (p, insensitive) => {
        const real = compiledSize(p, insensitive ? RE2JS.CASE_INSENSITIVE : 0);
        fc.pre(real !== null);
        expect(programSize(p) + 2).toBeGreaterThanOrEqual(real);
      }),
      { numRuns: 500 },
    );
  });

  test('counts the hostile patterns of issue 40 far past the bound, without compiling them', () => {
    expect(programSize('a{0,999}'.repeat(125))).toBe(249_750);
    expect(programSize(`${'[^!]{999}'.repeat(110)}!`)).toBe(109_891);
    expect(programSize('function\\s+\\w+Error\\(')).toBe(18);
  });
});
