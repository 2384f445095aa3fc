import fc from 'fast-check';
import { contentTerms, foldText } from '@gitdex/terms';
import type { ContentPlan } from '@gitdex/ports';
import { planQuery } from '../../src/search/plan';
import { compileQuery } from '../../src/search/query';
import { findHits } from '../../src/search/verify';
import { selects } from '../../../../test/conformance/index-store.cases-content';

/** Every substring of a plan, with its cased form when it has one. */
function substrings(plan: ContentPlan): { text: string; cased?: string }[] {
  if (plan.op === 'substring') return [{ text: plan.text, ...(plan.cased !== undefined ? { cased: plan.cased } : {}) }];
  return plan.op === 'all' ? [] : plan.of.flatMap(substrings);
}

describe('the content plan of a query', () => {
  test('a case-sensitive literal or regex asks for its strings in their case; one with a case-insensitive part only for their folds', () => {
    expect(planQuery('hasError', false, true)).toEqual({ op: 'substring', text: 'haserror', cased: 'hasError' });
    expect(planQuery('hasError', false, false)).toEqual({ op: 'substring', text: 'haserror' });
    expect(planQuery('hasError\\(', true, true)).toEqual({ op: 'substring', text: 'haserror(', cased: 'hasError(' });
    expect(substrings(planQuery('is[EI]rror|isOk', true, true))).toEqual([
      { text: 'iserror', cased: 'isError' },
      { text: 'isirror', cased: 'isIrror' },
      { text: 'isok', cased: 'isOk' },
    ]);
    for (const pattern of ['(?i)hasError', 'has(?i:E)rror', '(?i:x)|hasError', 'hasError(?i)x']) {
      expect(substrings(planQuery(pattern, true, true)).every((s) => s.cased === undefined)).toBe(true);
    }
    expect(substrings(planQuery('hasError', true, false)).every((s) => s.cased === undefined)).toBe(true);
  });

  test('never leaves out a file RE2 finds a match in: the content holds every term the plan asks for', () => {
    // Camel-case words in other spellings (case changed, the long s, the Kelvin sign), and
    // patterns of them with case-insensitive groups and flags, classes, alternations, escapes.
    const lower = (minLength: number) => fc.array(fc.constantFrom('a', 'b', 'e', 'r', 'k', 's', '\u017f', 'é', '_'), { minLength, maxLength: 3 });
    const upper = fc.constantFrom('E', 'R', 'K', 'S', '\u212a', 'É');
    // Humps inside a word, and (a word that starts upper-case) across two pieces of a pattern.
    const word = fc.tuple(lower(0), upper, lower(1)).map(([a, b, c]) => [...a, b, ...c].join(''));
    const spelling = (w: string) => fc.constantFrom(w, w.toUpperCase(), w.toLowerCase(), w.replace(/s/g, '\u017f'), w.replace(/k/gi, '\u212a'));
    const piece = (words: string[]) =>
      fc.oneof(
        fc.constantFrom(...words),
        fc.constant(`(?:${words.join('|')})`),
        fc.constantFrom(...words).map((w) => `(?i:${w})`),
        fc.constantFrom(...words).map((w) => `\\Q${w}\\E`),
        fc.constantFrom('(?i)', '[Ee]', '[eR]r', '\\x45', '.', '\\w*', 'r?', '^', '$'),
      );
    const scenario = fc.array(word, { minLength: 1, maxLength: 3 }).chain((words) =>
      fc.record({
        pattern: fc.array(piece(words), { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('')),
        literal: fc.constantFrom(...words),
        parts: fc.array(fc.oneof(fc.constantFrom(...words).chain(spelling), word), { maxLength: 6 }),
        separator: fc.constantFrom(' ', ''),
        caseSensitive: fc.boolean(),
        isRegex: fc.boolean(),
      }),
    );
    let matched = 0;
    let cased = 0;
    fc.assert(
      fc.property(scenario, ({ pattern, literal, parts, separator, caseSensitive, isRegex }) => {
        const query = isRegex ? pattern : literal;
        const content = parts.join(separator);
        let compiled;
        try {
          compiled = compileQuery(query, isRegex, caseSensitive);
        } catch {
          return;
        }
        if (findHits(content, compiled, 1, () => false).count === 0) return;
        matched += 1;
        const plan = planQuery(query, isRegex, compiled.caseSensitive);
        if (substrings(plan).some((s) => s.cased !== undefined && s.cased !== s.text)) cased += 1;
        for (const s of substrings(plan)) if (s.cased !== undefined) expect(foldText(s.cased)).toBe(s.text);
        expect(selects(plan, new Set(contentTerms(content)))).toBe(true);
      }),
      { numRuns: 4_000 },
    );
    // The property was tried where it matters: matching contents, with plans in their case.
    expect(matched).toBeGreaterThan(500);
    expect(cased).toBeGreaterThan(200);
  });

  test('a case-insensitive part next to a case-sensitive one asks for no hump the part may not hold', () => {
    // `(?i:ab)Er` matches `ABEr`, which has no hump trigram: `bEr` of the pattern's fold-and-case
    // string must not be asked for.
    const lower = fc.array(fc.constantFrom('a', 'b', 'k', 's'), { minLength: 1, maxLength: 3 }).map((units) => units.join(''));
    const upperFirst = fc.tuple(fc.constantFrom('E', 'R', 'K'), lower).map(([a, b]) => a + b);
    fc.assert(
      fc.property(lower, upperFirst, fc.constantFrom('(?i:%a)%b', '%b(?i:%a)%b', '(?i:%a)\\Q%b\\E'), (a, b, shape) => {
        const pattern = shape.replaceAll('%a', a).replaceAll('%b', b);
        const content = shape.startsWith('%b') ? `${b}${a.toUpperCase()}${b}` : `${a.toUpperCase()}${b}`;
        expect(findHits(content, compileQuery(pattern, true, true), 1, () => false).count).toBe(1);
        expect(selects(planQuery(pattern, true, true), new Set(contentTerms(content)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
