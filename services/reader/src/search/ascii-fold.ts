/** Characters a RegExp gives a meaning to (all of them may be escaped with the `u` flag). */
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const ASCII = /^\p{ASCII}*$/u;

/**
 * A RegExp that finds `text` case-insensitively as RE2 does, or null when `text` is not all
 * ASCII (RE2's folding and JavaScript's may part on other letters): the `iu` flags fold by
 * Unicode simple case folding, which folds the Kelvin sign onto k and the long s onto s, as
 * RE2 does, and nothing else onto ASCII (U+0130 onto no i in either). It reads the text as it
 * is: no lower-cased copy. `global` for a search that goes on from `lastIndex`.
 */
export function asciiCaseInsensitive(text: string, global = false): RegExp | null {
  if (!ASCII.test(text)) return null;
  return new RegExp(text.replace(SYNTAX, '\\$&'), global ? 'giu' : 'iu');
}
