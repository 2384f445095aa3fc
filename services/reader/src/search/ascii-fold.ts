/** Characters a RegExp gives a meaning to (all of them may be escaped with the `u` flag). */
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/**
 * A RegExp that finds `text` (ASCII) case-insensitively as RE2 does: the `iu` flags fold by
 * Unicode simple case folding, which folds the Kelvin sign onto k and the long s onto s, as
 * RE2 does, and nothing else onto ASCII (U+0130 onto no i in either). It reads the text as it
 * is: no lower-cased copy. `global` for a search that goes on from `lastIndex`.
 */
export function asciiCaseInsensitive(text: string, global = false): RegExp {
  return new RegExp(text.replace(SYNTAX, '\\$&'), global ? 'giu' : 'iu');
}
