import type { ReadFileOutput } from '@gitdex/contracts';

export interface LineEndings {
  line_ending: NonNullable<ReadFileOutput['line_ending']>;
  ends_with_newline: boolean;
}

/**
 * The line ends of a text, so a caller can rebuild it from the numbered lines: "lf", "crlf",
 * "cr" (old Mac: no "\n" at all), "mixed" or "none" (a single line without an end).
 */
export function lineEndingsOf(text: string): LineEndings {
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf += 1;
    else lf += 1;
  }
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 10) cr += 1;
  const kinds = [lf > 0, crlf > 0, cr > 0].filter(Boolean).length;
  const line_ending = kinds > 1 ? 'mixed' : lf > 0 ? 'lf' : crlf > 0 ? 'crlf' : cr > 0 ? 'cr' : 'none';
  return { line_ending, ends_with_newline: text.endsWith('\n') || text.endsWith('\r') };
}
