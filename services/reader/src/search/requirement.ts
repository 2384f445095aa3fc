import type { ContentPlan } from '@gitdex/ports';

/**
 * What a text must contain to possibly hold a match, tested by indexOf before the regex
 * engine runs. The plan is sound for a line as it is for a file, since a match never crosses
 * a line.
 *
 * - `cased`: a plan whose every substring is needed in its case (a case-sensitive query,
 *   contracts' ContentPlan `cased`) is tested on the text as it is, every substring, any
 *   characters: RE2 matches those units exactly.
 * - otherwise the test is of the plan's folded substrings of ASCII characters on the
 *   lower-cased text (see lowerForAsciiTerms); a substring with other characters says
 *   nothing there (the fold and toLowerCase may differ on them), so it passes.
 */
export interface Requirement {
  /** Whether `test` takes the text as it is (true) or lower-cased by lowerForAsciiTerms (false). */
  cased: boolean;
  test: (text: string) => boolean;
}

const ASCII = /^\p{ASCII}*$/u;

type Test = (text: string) => boolean;

/** Whether every substring of the plan gives its cased form. */
function allCased(plan: ContentPlan): boolean {
  if (plan.op === 'substring') return plan.cased !== undefined;
  return plan.op === 'all' || plan.of.every(allCased);
}

function testOf(plan: ContentPlan, cased: boolean): Test | null {
  switch (plan.op) {
    case 'all':
      return null;
    case 'substring': {
      const text = cased ? (plan.cased as string) : plan.text;
      return cased || ASCII.test(text) ? (seen) => seen.includes(text) : null;
    }
    case 'and': {
      const parts = plan.of.map((part) => testOf(part, cased)).filter((part): part is Test => part !== null);
      if (parts.length === 0) return null;
      return parts.length === 1 ? (parts[0] as Test) : (seen) => parts.every((part) => part(seen));
    }
    case 'or': {
      const parts = plan.of.map((part) => testOf(part, cased));
      if (parts.some((part) => part === null)) return null;
      return (seen) => (parts as Test[]).some((part) => part(seen));
    }
  }
}

/** The plan as a Requirement, or null when it requires nothing this test can see. */
export function requirementOf(plan: ContentPlan): Requirement | null {
  const cased = allCased(plan);
  const test = testOf(plan, cased);
  return test === null ? null : { cased, test };
}

/**
 * The text lower-cased as the content plan's ASCII substrings are folded (contracts'
 * foldText): every ASCII character the fold yields, toLowerCase yields at the same place,
 * but for the long s, which the fold makes "s". Other characters may differ, or change the
 * length (U+0130): never an ASCII substring lost, at most one found that the fold lacks.
 */
export function lowerForAsciiTerms(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('\u017f') ? lower.replaceAll('\u017f', 's') : lower;
}
