/** One file's change as `git diff` reports it: counts, and the hunks unless either side is binary. */
import { lineDiff } from './line-diff';
import { formatPatch } from './patch';
import { bytesToText, isBinary, splitRecords, textToUtf8 } from './records';

export interface FileDiff {
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  /** the hunks from the first `@@`, '' when the contents are equal; undefined when binary */
  readonly patch: string | undefined;
}

export function diffFile(old: Uint8Array, next: Uint8Array, context: number): FileDiff {
  if (isBinary(old) || isBinary(next)) return { binary: true, additions: 0, deletions: 0, patch: undefined };
  const a = splitRecords(bytesToText(old));
  const b = splitRecords(bytesToText(next));
  const changes = lineDiff(a, b);
  let additions = 0;
  let deletions = 0;
  for (const c of changes) {
    additions += c.added;
    deletions += c.removed;
  }
  return { binary: false, additions, deletions, patch: textToUtf8(formatPatch(a, b, changes, context)) };
}
