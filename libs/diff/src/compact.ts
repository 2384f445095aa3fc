/**
 * git's sliding of ambiguous change groups (xdiffi.c, xdl_change_compact): a group of added or
 * removed lines that could sit higher or lower is slid down as far as it goes, then back up to
 * line up with a change on the other side, or else to where the indent heuristic scores the two
 * split points best. Without this, a diff is correct but differs from git's (which `}` moved).
 */
import type { Lines, Side } from './prepare';
import { isGitSpace } from './records';

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** Columns of leading white space (tab to the next multiple of 8), -1 for a blank line. */
function indentOf(line: string): number {
  let ret = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (!isGitSpace(c)) return ret;
    if (c === 0x20) ret += 1;
    else if (c === 0x09) ret += 8 - (ret % 8);
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Score {
  effectiveIndent: number;
  penalty: number;
}

function addSplitScore(lines: Lines, split: number, s: Score): void {
  const nrec = lines.length;
  const endOfFile = split >= nrec;
  const indent0 = endOfFile ? -1 : indentOf(lines.at(split)!);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indentOf(lines.at(i)!);
    if (preIndent !== -1) break;
    preBlank += 1;
    if (preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlankLines = 0;
  let postIndent = -1;
  for (let i = split + 1; i < nrec; i++) {
    postIndent = indentOf(lines.at(i)!);
    if (postIndent !== -1) break;
    postBlankLines += 1;
    if (postBlankLines === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }

  if (preIndent === -1 && preBlank === 0) s.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) s.penalty += END_OF_FILE_PENALTY;
  const postBlank = indent0 === -1 ? 1 + postBlankLines : 0;
  const totalBlank = preBlank + postBlank;
  s.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  s.penalty += POST_BLANK_WEIGHT * postBlank;
  const indent = indent0 !== -1 ? indent0 : postIndent;
  const anyBlanks = totalBlank !== 0;
  s.effectiveIndent += indent;
  if (indent === -1 || preIndent === -1) return;
  if (indent > preIndent) {
    s.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (indent < preIndent) {
    if (postIndent !== -1 && postIndent > indent) {
      s.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
    } else {
      s.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
    }
  }
}

function scoreCompare(a: Score, b: Score): number {
  const cmp = Number(a.effectiveIndent > b.effectiveIndent) - Number(a.effectiveIndent < b.effectiveIndent);
  return INDENT_WEIGHT * cmp + (a.penalty - b.penalty);
}

/** A run of changed lines [start, end) of one side; empty (start === end) between unchanged lines. */
interface Group {
  start: number;
  end: number;
}

/** changed(i) reads line i's mark; the sentinels make -1 and n read as unchanged. */
function isChanged(side: Side, i: number): boolean {
  return side.changed[i + 1] === 1;
}

function setChanged(side: Side, i: number, value: boolean): void {
  side.changed[i + 1] = value ? 1 : 0;
}

function groupInit(side: Side): Group {
  const g = { start: 0, end: 0 };
  while (isChanged(side, g.end)) g.end++;
  return g;
}

function groupNext(side: Side, g: Group): boolean {
  if (g.end === side.lines.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; isChanged(side, g.end); g.end++);
  return true;
}

function groupPrevious(side: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; isChanged(side, g.start - 1); g.start--);
  return true;
}

function slideDown(side: Side, g: Group): boolean {
  if (g.end < side.lines.length && side.classes[g.start] === side.classes[g.end]) {
    setChanged(side, g.start++, false);
    setChanged(side, g.end++, true);
    while (isChanged(side, g.end)) g.end++;
    return true;
  }
  return false;
}

function slideUp(side: Side, g: Group): boolean {
  if (g.start > 0 && side.classes[g.start - 1] === side.classes[g.end - 1]) {
    setChanged(side, --g.start, true);
    setChanged(side, --g.end, false);
    while (isChanged(side, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

function broken(what: string): never {
  throw new Error(`diff group sync broken (${what})`);
}

export function compact(side: Side, other: Side, indentHeuristic: boolean): void {
  const g = groupInit(side);
  const go = groupInit(other);
  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(side, g)) if (!groupPrevious(other, go)) broken('sliding up');
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!slideDown(side, g)) break;
          if (!groupNext(other, go)) broken('sliding down');
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);

      if (g.end === earliestEnd) {
        // no shifting was possible
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!slideUp(side, g)) broken('match disappeared');
          if (!groupPrevious(other, go)) broken('sliding to match');
        }
      } else if (indentHeuristic) {
        let shift = Math.max(earliestEnd, g.end - groupSize - 1, g.end - INDENT_HEURISTIC_MAX_SLIDING);
        let bestShift = -1;
        let best: Score = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: Score = { effectiveIndent: 0, penalty: 0 };
          addSplitScore(side.lines, shift, score);
          addSplitScore(side.lines, shift - groupSize, score);
          if (bestShift === -1 || scoreCompare(score, best) <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!slideUp(side, g)) broken('best shift unreached');
          if (!groupPrevious(other, go)) broken('sliding to blank line');
        }
      }
    }
    if (!groupNext(side, g)) break;
    if (!groupNext(other, go)) broken('moving to next group');
  }
  if (groupNext(other, go)) broken('at end of file');
}
