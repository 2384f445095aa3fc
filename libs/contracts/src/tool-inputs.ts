import { z } from 'zod';

// The argument rules every reader tool shares: strict objects, repository and ref, whole numbers
// whose errors say what came (moved out of tools.ts unchanged).

/** Longest repository path accepted; longer ones are refused with a message. */
export const MAX_PATH_CHARS = 1000;

/** A strict input object whose unknown-key error names the arguments the tool takes. */
export function strictInput<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}: this tool takes ${known}` : undefined),
  });
}

export const repository = z
  .string({ error: 'repository: give the repository as "owner/name" or its GitHub URL' })
  .trim()
  .min(1, 'repository: give the repository as "owner/name" or its GitHub URL')
  .max(2048, 'repository: at most 2,048 characters')
  .describe('"owner/name" or its GitHub URL.');

export const ref = z
  .string({ error: 'ref: give a branch name such as "main", a full ref, or a commit sha' })
  .trim()
  .min(1, 'ref: give a branch name such as "main", or leave it out for the default branch')
  .max(300, 'ref: at most 300 characters')
  .optional()
  .describe('Branch, tag, "pull/N", full ref, indexed commit (7+ hex digits) or "main~2". Default: the default branch.');

/** "got -3", "got \"ten\"": the value a caller sent, for messages. */
const got = (input: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    // Too deep or circular to show: the message still says what was expected.
    text = `a ${Array.isArray(input) ? 'list' : typeof input} too deep to show`;
  }
  return text === undefined ? '' : ` (got ${text.length > 40 ? `${text.slice(0, 40)}…` : text})`;
};

/** A whole number from min to max whose every error says what the argument takes and what came. */
export const wholeNumber = (field: string, min: number, max: number, what: string) =>
  z
    .number({ error: (issue) => `${field}: ${what}${got(issue.input)}` })
    .int({ error: (issue) => `${field}: ${what}${got(issue.input)}` })
    .min(min, { error: (issue) => `${field}: ${what}${got(issue.input)}` })
    .max(max, { error: (issue) => `${field}: ${what}${got(issue.input)}` });

export const lineNumber = (field: string) => wholeNumber(field, 1, Number.MAX_SAFE_INTEGER, 'a whole line number, 1 or more (lines are numbered from 1)').optional();
