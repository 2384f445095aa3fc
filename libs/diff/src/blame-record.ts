/**
 * A version blame as the history store keeps it: the owners as [commit, path, boundary] and the
 * lines as runs (owner index, 0-based line in the owner's version, count), a run being lines of
 * one owner whose numbers there follow on: about two runs per change still visible in the file,
 * a few kilobytes for a 2,000-line file after hundreds of scattered edits. `runs` is null when
 * one owner has every line as its own (a version whose lines the core never numbered).
 */
import type { BlameOwner, VersionBlame } from './blame';

export interface VersionBlameRecord {
  owners: [commit: string, path: string, boundary: 0 | 1][];
  runs: number[] | null;
}

export function encodeVersionBlame(version: VersionBlame): VersionBlameRecord {
  const owners = version.owners.map((o): [string, string, 0 | 1] => [o.commit, o.path, o.boundary ? 1 : 0]);
  const { owner, at } = version;
  if (!owner || !at) return { owners, runs: null };
  const runs: number[] = [];
  for (let i = 0; i < owner.length;) {
    let j = i + 1;
    while (j < owner.length && owner[j] === owner[i] && at[j] === at[j - 1]! + 1) j++;
    runs.push(owner[i]!, at[i]!, j - i);
    i = j;
  }
  return { owners, runs };
}

export function decodeVersionBlame(record: VersionBlameRecord): VersionBlame {
  const owners = record.owners.map(([commit, path, boundary]): BlameOwner => ({ commit, path, boundary: boundary === 1 }));
  const runs = record.runs;
  if (!runs) return { owners, owner: null, at: null };
  let n = 0;
  for (let r = 2; r < runs.length; r += 3) n += runs[r]!;
  const owner = new Int32Array(n);
  const at = new Int32Array(n);
  for (let r = 0, i = 0; r < runs.length; r += 3) {
    for (let k = 0; k < runs[r + 2]!; k++, i++) {
      owner[i] = runs[r]!;
      at[i] = runs[r + 1]! + k;
    }
  }
  return { owners, owner, at };
}
