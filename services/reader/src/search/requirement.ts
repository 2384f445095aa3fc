import type { ContentPlan } from '@gitdex/ports';
import { asciiCaseInsensitive } from './ascii-fold';

/**
 * What a text must contain to possibly hold a match, tested before the regex engine runs, on
 * the text as it is. The plan is sound for a line as it is for a file, since a match never
 * crosses a line.
 *
 * - `cased`: a plan whose every substring is needed in its case (a case-sensitive query,
 *   contracts' ContentPlan `cased`) is tested with indexOf, every substring, any characters:
 *   RE2 matches those units exactly.
 * - otherwise the test is of the plan's folded substrings of ASCII characters, found
 *   case-insensitively as RE2 finds them (asciiCaseInsensitive); a substring with other
 *   characters says nothing there (the index's fold and RE2's may differ on them), so it passes.
 */
export interface Requirement {
  /** Whether the substrings are tested in their case (true) or case-insensitively (false). */
  cased: boolean;
  test: (text: string) => boolean;
}

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
      if (cased) {
        const text = plan.cased as string;
        return (seen) => seen.includes(text);
      }
      const folded = asciiCaseInsensitive(plan.text);
      return folded === null ? null : (seen) => folded.test(seen);
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
