/**
 * A line diff equal to git's default (Myers, indent heuristic on): the list of changes, each a
 * run of removed lines of the old side and added lines of the new side at the same place.
 */
import { compact } from './compact';
import { markChanges } from './myers';
import { type KnownIds, type Lines, prepare } from './prepare';

export interface Change {
  /** first removed line of the old side (0-based), or where the additions go */
  readonly i1: number;
  /** first added line of the new side (0-based), or where the removals were */
  readonly i2: number;
  readonly removed: number;
  readonly added: number;
}

export interface LineDiffOptions {
  /** git's default is on (diff.indentHeuristic); blame uses it too */
  readonly indentHeuristic?: boolean;
  /** ids of both sides' lines from one LineIds, when the caller diffs many versions */
  readonly known?: KnownIds;
}

export function lineDiff(old: Lines, next: Lines, options: LineDiffOptions = {}): Change[] {
  const [side1, side2] = prepare(old, next, options.known);
  markChanges(side1, side2);
  const indentHeuristic = options.indentHeuristic ?? true;
  compact(side1, side2, indentHeuristic);
  compact(side2, side1, indentHeuristic);
  // git's edit script (xdl_build_script): walk both sides back from the end in step.
  const c1 = side1.changed;
  const c2 = side2.changed;
  const changes: Change[] = [];
  for (let i1 = old.length, i2 = next.length; i1 >= 0 || i2 >= 0; i1--, i2--) {
    if (c1[i1] === 1 || c2[i2] === 1) {
      const l1 = i1;
      const l2 = i2;
      while (c1[i1] === 1) i1--;
      while (c2[i2] === 1) i2--;
      changes.push({ i1, i2, removed: l1 - i1, added: l2 - i2 });
    }
  }
  return changes.reverse();
}
