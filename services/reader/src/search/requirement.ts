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
  /**
   * Where the next occurrence at or after `from` starts of one substring that `test` needs in
   * every text it passes (-1 when there is none), found as `test` finds it; absent when no
   * single substring is needed (an alternation). A line without it cannot pass, so a scan can
   * go from one occurrence to the next instead of looking at every line.
   */
  anchor?: (text: string, from: number) => number;
}

type Test = (text: string) => boolean;

/** A needed substring's finder and its length (the longest is the anchor: usually the rarest). */
interface Anchor {
  length: number;
  find: (text: string, from: number) => number;
}

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

/** The longest substring every text passing testOf(plan, cased) holds, found as that test finds it; null when none. */
function anchorOf(plan: ContentPlan, cased: boolean): Anchor | null {
  if (plan.op === 'substring') {
    if (plan.text.length === 0) return null;
    if (cased) {
      const text = plan.cased as string;
      return { length: text.length, find: (seen, from) => seen.indexOf(text, from) };
    }
    const folded = asciiCaseInsensitive(plan.text, true);
    if (folded === null) return null;
    return {
      length: plan.text.length,
      find: (seen, from) => {
        folded.lastIndex = from;
        return folded.exec(seen)?.index ?? -1;
      },
    };
  }
  if (plan.op !== 'and') return null;
  let longest: Anchor | null = null;
  for (const part of plan.of) {
    const anchor = anchorOf(part, cased);
    if (anchor !== null && (longest === null || anchor.length > longest.length)) longest = anchor;
  }
  return longest;
}

/** The plan as a Requirement, or null when it requires nothing this test can see. */
export function requirementOf(plan: ContentPlan): Requirement | null {
  const cased = allCased(plan);
  const test = testOf(plan, cased);
  if (test === null) return null;
  const anchor = anchorOf(plan, cased);
  return anchor === null ? { cased, test } : { cased, test, anchor: anchor.find };
}
