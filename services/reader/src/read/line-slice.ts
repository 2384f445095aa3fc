import { cutText, formatNumber } from '../format/text';

/** Lines of a file chosen for one read_file answer, within the line and character limits. */
export interface LineSlice {
  /** The lines, without line ends ("\r\n" or "\n"); a cut line holds its first part. */
  lines: string[];
  /** First and last line numbers in `lines`; 0 and 0 when the file has no lines. */
  startLine: number;
  endLine: number;
  totalLines: number;
  /** The last line of the file is in `lines`, whole. */
  complete: boolean;
  /** The limits stopped the read before the end asked for (or cut a line). */
  truncated: boolean;
  /** A line longer than the character limit, cut; null when none. */
  cutLine: number | null;
  /** Characters of the cut line, whole. */
  cutLineLength: number;
  nextStartLine: number | null;
}

/** Lines to slice: `count` of them, numbered from 1. */
export interface Lines {
  readonly count: number;
  /** Line `number` (1-based), without its line end. */
  line(number: number): string;
}

/**
 * The lines of a text as git and editors count them: a final newline ends the last line,
 * it does not start one, and "\r\n" ends like "\n". Only where each line starts is
 * indexed (4 bytes a line); a line is cut out of the text when asked for, so reading 400
 * lines of a long file costs 400 lines, not the whole file.
 */
export class LineIndex implements Lines {
  readonly count: number;
  /** Start of each line, then one past the end of the last line's text. */
  private readonly starts: Int32Array;

  constructor(private readonly text: string) {
    let newlines = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines += 1;
    this.count = text === '' ? 0 : text.endsWith('\n') ? newlines : newlines + 1;
    this.starts = new Int32Array(this.count + 1);
    let line = 0;
    for (let at = text.indexOf('\n'); at !== -1 && line < this.count; at = text.indexOf('\n', at + 1)) {
      line += 1;
      this.starts[line] = at + 1;
    }
    // The last line has no newline of its own: pretend one after the text.
    if (line < this.count) this.starts[this.count] = text.length + 1;
  }

  line(number: number): string {
    const start = this.starts[number - 1] as number;
    let end = (this.starts[number] as number) - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return this.text.slice(start, end);
  }
}

/**
 * Picks lines start..end (1-based, inclusive) of `lines`: at most maxLines lines and
 * maxChars characters (each line counting its newline), and always at least one line
 * when the file has any. A start past the end reads the last line; a first line longer
 * than maxChars is cut to fit. The caller has checked that end >= start.
 */
export function sliceLines(lines: Lines, options: { start?: number; end?: number; maxLines: number; maxChars: number }): LineSlice {
  const total = lines.count;
  if (total === 0) {
    return { lines: [], startLine: 0, endLine: 0, totalLines: 0, complete: true, truncated: false, cutLine: null, cutLineLength: 0, nextStartLine: null };
  }
  const start = Math.min(Math.max(1, options.start ?? 1), total);
  const wantedEnd = Math.min(Math.max(start, options.end ?? total), total);
  const picked: string[] = [];
  let used = 0;
  let cutLine: number | null = null;
  let cutLineLength = 0;
  let end = start - 1;
  for (let number = start; number <= wantedEnd && picked.length < options.maxLines; number += 1) {
    const line = lines.line(number);
    const cost = line.length + 1;
    if (used + cost > options.maxChars) {
      if (picked.length > 0) break;
      // A single line over the limit: its first part, and a note says the rest is not shown.
      picked.push(cutText(line, Math.max(1, options.maxChars - 1)));
      cutLine = number;
      cutLineLength = line.length;
      end = number;
      break;
    }
    picked.push(line);
    used += cost;
    end = number;
  }
  return {
    lines: picked,
    startLine: start,
    endLine: end,
    totalLines: total,
    complete: end === total && cutLine === null,
    truncated: end < wantedEnd || cutLine !== null,
    cutLine,
    cutLineLength,
    nextStartLine: end < total ? end + 1 : null,
  };
}

/** The lines as `cat -n` shows them: the number right-aligned, a tab, the line as it is. */
export function numberLines(slice: LineSlice): string {
  const width = String(slice.endLine).length;
  // A plain loop: this runs for every line of every read.
  const numbered = new Array<string>(slice.lines.length);
  for (let i = 0; i < slice.lines.length; i += 1) {
    const line = slice.lines[i] as string;
    const number = slice.startLine + i;
    const marker = number === slice.cutLine ? ` … [line ${number} cut: ${formatNumber(slice.cutLineLength)} characters, the first ${formatNumber(line.length)} shown]` : '';
    numbered[i] = `${String(number).padStart(width)}\t${line}${marker}`;
  }
  return numbered.join('\n');
}
