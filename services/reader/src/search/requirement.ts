import type { ContentPlan } from '@gitdex/ports';

/**
 * What a text must contain to possibly hold a match, tested on its lower-cased form (see
 * lowerForAsciiTerms): the content plan's substrings of ASCII characters, by indexOf. The
 * plan is sound for a line as it is for a file, since a match never crosses a line; a
 * substring with other characters says nothing here (the fold and toLowerCase may differ on
 * them), so it passes.
 */
export type Requirement = (lowered: string) => boolean;

const ASCII = /^\p{ASCII}*$/u;

/** The plan as a Requirement, or null when it requires nothing this test can see. */
export function requirementOf(plan: ContentPlan): Requirement | null {
  switch (plan.op) {
    case 'all':
      return null;
    case 'substring': {
      const text = plan.text;
      return ASCII.test(text) ? (lowered) => lowered.includes(text) : null;
    }
    case 'and': {
      const parts = plan.of.map(requirementOf).filter((part): part is Requirement => part !== null);
      if (parts.length === 0) return null;
      return parts.length === 1 ? (parts[0] as Requirement) : (lowered) => parts.every((part) => part(lowered));
    }
    case 'or': {
      const parts = plan.of.map(requirementOf);
      if (parts.some((part) => part === null)) return null;
      return (lowered) => (parts as Requirement[]).some((part) => part(lowered));
    }
  }
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
