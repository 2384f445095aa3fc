/**
 * The hunks of a unified diff exactly as `git diff -U<n>` prints them from the first `@@`:
 * changes closer than twice the context share a hunk, the header carries the nearest line above
 * the hunk that starts with a letter, '_' or '$' (git's default function line, at most 80 bytes),
 * and a last line without a newline is followed by "\ No newline at end of file".
 */
import type { Change } from './line-diff';
import { isGitSpace } from './records';

const FUNC_LINE_BYTES = 80;
/** git formats the header into 128 bytes, the function line cut to what is left (xutils.c). */
const HEADER_BYTES = 128;
const NO_NEWLINE = '\\ No newline at end of file\n';

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** How many bytes at the end of line[0, len) do not make a whole UTF-8 character. */
function brokenUtf8Tail(line: string, len: number): number {
  let k = len;
  while (k > 0 && len - k < 3 && (line.charCodeAt(k - 1) & 0xc0) === 0x80) k--;
  const lead = k > 0 ? line.charCodeAt(k - 1) : 0;
  const trail = len - k;
  if (lead < 0x80) return trail;
  const want = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
  return want === trail ? 0 : trail + 1;
}

/**
 * The function line of a hunk header: cut at 80 bytes, then white space and any bytes that no
 * longer make a whole UTF-8 character dropped from its end (what git prints: it never ends the
 * header inside a character, nor on a stray byte).
 */
function funcLine(line: string): string | undefined {
  const c = line.charCodeAt(0);
  if (line.length === 0 || !(isAlpha(c) || c === 0x5f || c === 0x24)) return undefined;
  let len = Math.min(line.length, FUNC_LINE_BYTES);
  for (;;) {
    const before = len;
    while (len > 0 && isGitSpace(line.charCodeAt(len - 1))) len--;
    len -= brokenUtf8Tail(line, len);
    if (len === before) break;
  }
  return line.slice(0, len);
}

function range(start: number, count: number): string {
  const shown = count === 0 ? start - 1 : start;
  return count === 1 ? `${shown}` : `${shown},${count}`;
}

function emit(out: string[], prefix: string, line: string): void {
  out.push(prefix, line);
  if (!line.endsWith('\n')) out.push('\n', NO_NEWLINE);
}

/** Groups changes into hunks: the first and last change of each. */
export function hunkGroups(changes: readonly Change[], context: number): [number, number][] {
  const groups: [number, number][] = [];
  const maxCommon = 2 * context;
  for (let first = 0; first < changes.length;) {
    let last = first;
    while (last + 1 < changes.length) {
      const prev = changes[last]!;
      if (changes[last + 1]!.i1 - (prev.i1 + prev.removed) > maxCommon) break;
      last++;
    }
    groups.push([first, last]);
    first = last + 1;
  }
  return groups;
}

/** The patch text (byte text, as records.ts reads it), '' when nothing changed. */
export function formatPatch(old: readonly string[], next: readonly string[], changes: readonly Change[], context: number): string {
  const out: string[] = [];
  let func = '';
  let funcSearchedDownTo = -1;
  for (const [first, last] of hunkGroups(changes, context)) {
    const xch = changes[first]!;
    const xche = changes[last]!;
    const s1 = Math.max(xch.i1 - context, 0);
    const s2 = Math.max(xch.i2 - context, 0);
    const lctx = Math.min(context, old.length - (xche.i1 + xche.removed), next.length - (xche.i2 + xche.added));
    const e1 = xche.i1 + xche.removed + lctx;
    const e2 = xche.i2 + xche.added + lctx;

    // The function line: searched back from above the hunk to where the last search started;
    // when none is found there, the previous hunk's one still holds.
    for (let l = s1 - 1; l > funcSearchedDownTo && l >= 0; l--) {
      const found = funcLine(old[l]!);
      if (found !== undefined) {
        func = found;
        break;
      }
    }
    funcSearchedDownTo = s1 - 1;

    let header = `@@ -${range(s1 + 1, e1 - s1)} +${range(s2 + 1, e2 - s2)} @@`;
    if (func.length > 0) header += ' ' + func.slice(0, HEADER_BYTES - header.length - 2);
    out.push(header, '\n');

    let p2 = s2;
    for (; p2 < xch.i2; p2++) emit(out, ' ', next[p2]!);
    let p1 = xch.i1;
    p2 = xch.i2;
    for (let k = first; k <= last; k++) {
      const ch = changes[k]!;
      for (; p1 < ch.i1 && p2 < ch.i2; p1++, p2++) emit(out, ' ', next[p2]!);
      for (p1 = ch.i1; p1 < ch.i1 + ch.removed; p1++) emit(out, '-', old[p1]!);
      for (p2 = ch.i2; p2 < ch.i2 + ch.added; p2++) emit(out, '+', next[p2]!);
    }
    for (p2 = xche.i2 + xche.added; p2 < e2; p2++) emit(out, ' ', next[p2]!);
  }
  return out.join('');
}
