import type { FileDocument } from '@gitdex/contracts';
import { perObject } from '../per-object';
import { LineIndex } from './line-slice';
import { lineEndingsOf, type LineEndings } from './line-endings';

/** What read_file needs of a file version's text beyond the text itself. */
export interface FileText {
  lines: LineIndex;
  /**
   * JSON writes every character of the text in at most two: it has no control character
   * other than \b \t \n \f \r (the others take six, \u0000) and no lone surrogate (six too).
   */
  jsonAtMostDouble: boolean;
  /** How its lines end, to rebuild it from them. */
  endings: LineEndings;
}

// eslint-disable-next-line no-control-regex -- the control characters JSON escapes in six are what this looks for
const WIDE_IN_JSON = /[\u0000-\u0007\u000b\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Worked out once per file version (see perObject). */
export const textOf = perObject((file: FileDocument): FileText => {
  const content = file.content ?? '';
  return { lines: new LineIndex(content), jsonAtMostDouble: !WIDE_IN_JSON.test(content), endings: lineEndingsOf(content) };
});
