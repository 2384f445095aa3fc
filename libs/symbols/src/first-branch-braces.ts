/** Where a `}` ends: its offset past the brace, and its row and column there (0-based). */
export interface BraceEnd {
  endIndex: number;
  row: number;
  column: number;
}

/**
 * A C or C++ blob's braces paired as universal-ctags pairs them: in the first branch of each
 * preprocessor conditional only (the `#else` and `#elif` branches skipped; after `#if 0`, the
 * branch that follows it), never in comments, string or character literals, or directives (a
 * `#define` body). tree-sitter parses every branch, so braces that preprocessor branches split
 * (`#ifdef X` `namespace X {` `#endif` … `#ifdef X` `}` `#endif`) leave its tree an ERROR node with
 * the tokens loose in it; counted in the first branches, the same braces balance.
 *
 * Keyed by the offset of each `{` counted: its `}`, or null when none closes it before the end.
 * One pass over the text, linear in its length.
 */
export function firstBranchBraces(content: string): Map<number, BraceEnd | null> {
  const pairs = new Map<number, BraceEnd | null>();
  const open: number[] = [];
  /** One frame per open conditional: whether its current branch is skipped, and whether one was taken. */
  const frames: Array<{ skip: boolean; taken: boolean }> = [];
  let skipping = 0;
  let row = 0;
  let lineStart = 0;
  let atLineStart = true;
  const length = content.length;
  let i = 0;
  /** Past the end of the line holding `from` (backslash-newline continues it), counting rows. */
  const skipDirective = (from: number) => {
    let j = from;
    while (j < length) {
      const c = content.charCodeAt(j);
      if (c === NEWLINE) {
        if (content.charCodeAt(j - 1) !== BACKSLASH && !(content.charCodeAt(j - 1) === CR && content.charCodeAt(j - 2) === BACKSLASH)) return j;
        row += 1;
        lineStart = j + 1;
      } else if (c === SLASH && content.charCodeAt(j + 1) === STAR) {
        j = skipBlockComment(j + 2) - 1;
      } else if (c === SLASH && content.charCodeAt(j + 1) === SLASH) {
        const newline = content.indexOf('\n', j);
        return newline === -1 ? length : newline;
      }
      j += 1;
    }
    return length;
  };
  /** Past the `*` `/` closing a block comment whose text starts at `from`, counting rows. */
  const skipBlockComment = (from: number) => {
    const close = content.indexOf('*/', from);
    const end = close === -1 ? length : close + 2;
    for (let newline = content.indexOf('\n', from); newline !== -1 && newline < end; newline = content.indexOf('\n', newline + 1)) {
      row += 1;
      lineStart = newline + 1;
    }
    return end;
  };
  /** Past a quoted literal whose opening quote is at `from`; an unclosed one ends at its line's end. */
  const skipQuoted = (from: number, quote: number) => {
    let j = from + 1;
    while (j < length) {
      const c = content.charCodeAt(j);
      if (c === BACKSLASH) j += 2;
      else if (c === quote) return j + 1;
      else if (c === NEWLINE) return j;
      else j += 1;
    }
    return length;
  };
  /** Past a raw string `R"delim(…)delim"` whose quote is at `from`, counting rows. */
  const skipRaw = (from: number) => {
    const paren = content.indexOf('(', from);
    // A delimiter is at most 16 characters; anything else is no raw string, read as a plain one.
    if (paren === -1 || paren - from - 1 > 16) return skipQuoted(from, QUOTE);
    const close = content.indexOf(`)${content.slice(from + 1, paren)}"`, paren);
    const end = close === -1 ? length : close + paren - from + 1;
    for (let newline = content.indexOf('\n', from); newline !== -1 && newline < end; newline = content.indexOf('\n', newline + 1)) {
      row += 1;
      lineStart = newline + 1;
    }
    return end;
  };
  const directive = (from: number) => {
    let j = from + 1;
    while (content.charCodeAt(j) === SPACE || content.charCodeAt(j) === TAB) j += 1;
    const word = /^[a-z]*/.exec(content.slice(j, j + 8))![0];
    const rest = content.slice(j + word.length, Math.min(length, j + word.length + 16)).trimStart();
    const zero = /^0(?![\w.])/.test(rest);
    if (word === 'if' || word === 'ifdef' || word === 'ifndef') {
      const skip = word === 'if' && zero;
      frames.push({ skip, taken: !skip });
      if (skip) skipping += 1;
    } else if ((word === 'else' || word.startsWith('elif')) && frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const skip = frame.taken || (word === 'elif' && zero);
      if (skip !== frame.skip) skipping += skip ? 1 : -1;
      frame.skip = skip;
      frame.taken ||= !skip;
    } else if (word === 'endif' && frames.length > 0) {
      if (frames.pop()!.skip) skipping -= 1;
    }
    return skipDirective(j);
  };
  while (i < length) {
    const c = content.charCodeAt(i);
    if (c === NEWLINE) {
      row += 1;
      lineStart = i + 1;
      atLineStart = true;
      i += 1;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR || c === 12 || c === 11) {
      i += 1;
      continue;
    }
    const wasAtLineStart = atLineStart;
    atLineStart = false;
    if (c === HASH && wasAtLineStart) i = directive(i);
    else if (c === SLASH && content.charCodeAt(i + 1) === SLASH) {
      const newline = content.indexOf('\n', i);
      i = newline === -1 ? length : newline;
    } else if (c === SLASH && content.charCodeAt(i + 1) === STAR) i = skipBlockComment(i + 2);
    else if (c === QUOTE) i = isRawPrefix(content, i) ? skipRaw(i) : skipQuoted(i, QUOTE);
    // A quote after a letter or digit separates digits (`1'000'000`) or ends a prefix (`u8'a'`: rare).
    else if (c === APOSTROPHE && !isWordChar(content.charCodeAt(i - 1))) i = skipQuoted(i, APOSTROPHE);
    else {
      if (skipping === 0) {
        if (c === OPEN) open.push(i);
        else if (c === CLOSE && open.length > 0) pairs.set(open.pop()!, { endIndex: i + 1, row, column: i + 1 - lineStart });
      }
      i += 1;
    }
  }
  for (const unclosed of open) pairs.set(unclosed, null);
  return pairs;
}

const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const QUOTE = 34;
const APOSTROPHE = 39;
const OPEN = 123;
const CLOSE = 125;

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** A `"` that opens a raw string: after `R`, `u8R`, `uR`, `UR` or `LR` standing as a word of its own. */
function isRawPrefix(content: string, quote: number): boolean {
  if (content.charCodeAt(quote - 1) !== 82) return false;
  const prefix = /(?:u8|[uUL])?R$/.exec(content.slice(Math.max(0, quote - 3), quote));
  if (!prefix) return false;
  return !isWordChar(content.charCodeAt(quote - prefix[0].length - 1));
}
