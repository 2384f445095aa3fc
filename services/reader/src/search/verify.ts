import type { CompiledQuery } from './query';
import type { Requirement } from './requirement';

/**
 * One matching line: its number, where it is in the content (`start` to `end`, without its
 * line break) and where in it the matches are ([start, end) in UTF-16 units of the line).
 */
export interface LineHit {
  line: number;
  start: number;
  end: number;
  ranges: [number, number][];
}

export interface FileHits {
  /** Matching lines, in line order, at most `keep` of them. */
  lines: LineHit[];
  /** Every matching line of the file. */
  count: number;
  /** False when the deadline stopped the scan of this file. */
  complete: boolean;
}

/** Ranges kept per line: a line with thousands of matches needs no thousands of ranges. */
const MAX_RANGES = 50;
/** Lines between two looks at the clock, and characters: a minified file's few lines are long. */
const CLOCK_EVERY = 2048;
const CLOCK_EVERY_CHARS = 256 * 1024;

/**
 * The lines of a content that match, exactly as `git grep -n` numbers them: lines are
 * split at "\n" (a "\r" before it belongs to the line), a final "\n" ends the last line
 * rather than starting an empty one, and an empty content has no lines.
 */
export function findHits(content: string, query: CompiledQuery, keep: number, expired: () => boolean, requires: Requirement | null = null): FileHits {
  const none: FileHits = { lines: [], count: 0, complete: true };
  if (content.length === 0) return none;
  const { literal, asciiFoldedLiteral: folded } = query;
  if (literal !== null) return literalHits(content, literal.length, (from) => content.indexOf(literal, from), keep);
  if (folded !== null) {
    // Every character of an ASCII literal matches one unit (the Kelvin sign and the long s are one each).
    return literalHits(
      content,
      query.text.length,
      (from) => {
        folded.lastIndex = from;
        return folded.exec(content)?.index ?? -1;
      },
      keep,
    );
  }
  // The regex engine (re2js, in JavaScript) is the slow part: what the query's plan requires
  // rules out the file, then each line, before the regex is tried.
  if (requires !== null && !requires.test(content)) return none;
  if (requires?.anchor !== undefined) return anchoredHits(content, query, keep, expired, requires.test, requires.anchor);
  // test() runs RE2's DFA (no submatch positions): far cheaper than find() on text that does
  // not match, but a pass over the whole file; lines the requirement filters cost less.
  if (requires === null && query.wholeFilePrefilter && !query.re.test(content)) return none;
  const lines: LineHit[] = [];
  let count = 0;
  const matcher = query.re.matcher('');
  let start = 0;
  let number = 0;
  let clockAt = 0;
  while (start < content.length) {
    number += 1;
    if (number % CLOCK_EVERY === 0 || start - clockAt > CLOCK_EVERY_CHARS) {
      clockAt = start;
      if (expired()) return { lines, count, complete: false };
    }
    const newline = content.indexOf('\n', start);
    const end = newline < 0 ? content.length : newline;
    const text = content.slice(start, end);
    if (requires !== null && !requires.test(text)) {
      start = end + 1;
      continue;
    }
    if (query.re.test(text)) {
      count += 1;
      if (lines.length < keep) {
        matcher.resetMatcherInput(text);
        if (matcher.find()) lines.push({ line: number, start, end, ranges: rangesOf(matcher) });
      }
    }
    start = end + 1;
  }
  return { lines, count, complete: true };
}

/**
 * findHits for a query whose requirement has an anchor: only the lines holding it are looked
 * at, from one occurrence to the next (indexOf, native), instead of every line in turn; the
 * lines before a hit are counted only for its number. Same lines, counts and ranges.
 */
function anchoredHits(content: string, query: CompiledQuery, keep: number, expired: () => boolean, test: Requirement['test'], anchor: NonNullable<Requirement['anchor']>): FileHits {
  const lines: LineHit[] = [];
  let count = 0;
  const matcher = query.re.matcher('');
  const numberOf = lineNumbers(content);
  let looked = 0;
  let clockAt = 0;
  for (let at = anchor(content, 0); at >= 0;) {
    const start = content.lastIndexOf('\n', at - 1) + 1;
    const newline = content.indexOf('\n', at);
    const end = newline < 0 ? content.length : newline;
    looked += 1;
    if (looked % CLOCK_EVERY === 0 || start - clockAt > CLOCK_EVERY_CHARS) {
      clockAt = start;
      if (expired()) return { lines, count, complete: false };
    }
    const text = content.slice(start, end);
    if (test(text) && query.re.test(text)) {
      count += 1;
      if (lines.length < keep) {
        matcher.resetMatcherInput(text);
        if (matcher.find()) lines.push({ line: numberOf(start), start, end, ranges: rangesOf(matcher) });
      }
    }
    at = newline < 0 ? -1 : anchor(content, end + 1);
  }
  return { lines, count, complete: true };
}

/** Every non-overlapping match of a line, leftmost first, from a matcher that just found the first. */
function rangesOf(matcher: ReturnType<CompiledQuery['re']['matcher']>): [number, number][] {
  const ranges: [number, number][] = [];
  const length = matcher.inputLength();
  for (;;) {
    const from = matcher.start();
    const to = matcher.end();
    ranges.push([from, to]);
    if (ranges.length >= MAX_RANGES) break;
    // An empty match (e.g. "^" or "x*") moves on by one, as every regex engine does.
    const next = to === from ? to + 1 : to;
    if (next > length || !matcher.find(next)) break;
  }
  return ranges;
}

/**
 * The number of a line by where it starts, counting line breaks on from the line numbered
 * before: the lines are asked in order, so a file's line breaks are counted once, and only
 * up to the last line asked.
 */
function lineNumbers(content: string): (start: number) => number {
  let number = 1;
  let counted = 0;
  return (start) => {
    for (let next = content.indexOf('\n', counted); next >= 0 && next < start; next = content.indexOf('\n', counted)) {
      number += 1;
      counted = next + 1;
    }
    return number;
  };
}

/**
 * A literal of `length` units, found by `find` (the next match at or after a position, or -1)
 * over the whole content, each hit mapped to its line. A literal holds no line break, so a
 * match past the end of the line before starts a new line; lines past the `keep` first are
 * counted, never numbered.
 */
function literalHits(content: string, length: number, find: (from: number) => number, keep: number): FileHits {
  const lines: LineHit[] = [];
  let count = 0;
  const numberOf = lineNumbers(content);
  let start = 0;
  let end = -1;
  let current: LineHit | null = null;
  for (let position = find(0); position >= 0; position = find(position + length)) {
    if (position > end) {
      count += 1;
      start = content.lastIndexOf('\n', position - 1) + 1;
      const newline = content.indexOf('\n', position);
      end = newline < 0 ? content.length : newline;
      current = lines.length < keep ? { line: numberOf(start), start, end, ranges: [] } : null;
      if (current !== null) lines.push(current);
    }
    if (current !== null && current.ranges.length < MAX_RANGES) current.ranges.push([position - start, position - start + length]);
  }
  return { lines, count, complete: true };
}
