import type { CompiledQuery } from './query';
import type { Requirement } from './requirement';

/** One matching line: its number and where in it the matches are ([start, end) in UTF-16 units). */
export interface LineHit {
  line: number;
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
        if (matcher.find()) lines.push({ line: number, ranges: rangesOf(matcher) });
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
  // The line numbered `number` starts at `counted`.
  let number = 1;
  let counted = 0;
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
        for (let next = content.indexOf('\n', counted); next >= 0 && next < start; next = content.indexOf('\n', counted)) {
          number += 1;
          counted = next + 1;
        }
        matcher.resetMatcherInput(text);
        if (matcher.find()) lines.push({ line: number, ranges: rangesOf(matcher) });
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

/** A literal of `length` units, found by `find` (the next match at or after a position, or -1) over the whole content, each hit mapped to its line. */
function literalHits(content: string, length: number, find: (from: number) => number, keep: number): FileHits {
  const lines: LineHit[] = [];
  let count = 0;
  let position = find(0);
  if (position < 0) return { lines, count, complete: true };
  let lineStart = 0;
  let lineNumber = 1;
  let current: LineHit | null = null;
  while (position >= 0) {
    // Advance the line counter to the line holding `position`.
    let newline = content.indexOf('\n', lineStart);
    while (newline >= 0 && newline < position) {
      lineNumber += 1;
      lineStart = newline + 1;
      newline = content.indexOf('\n', lineStart);
    }
    if (current === null || current.line !== lineNumber) {
      count += 1;
      current = { line: lineNumber, ranges: [] };
      if (lines.length < keep) lines.push(current);
    }
    if (current.ranges.length < MAX_RANGES) current.ranges.push([position - lineStart, position - lineStart + length]);
    position = find(position + length);
  }
  return { lines, count, complete: true };
}
