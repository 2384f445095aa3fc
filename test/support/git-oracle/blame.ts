/** `git blame --line-porcelain` read into the shape the blame core answers in. */
import type { BlamedLine } from '@gitdex/diff';
import type { Git } from './git';

export function gitBlame(git: Pick<Git, 'run'>, rev: string, path: string): BlamedLine[] {
  const out = git.run(['blame', '--line-porcelain', rev, '--', path]);
  const lines: BlamedLine[] = [];
  let current: { commit: string; line: number; path: string; boundary: boolean } | undefined;
  for (const row of out.split('\n')) {
    const header = /^([0-9a-f]{40}) (\d+) (\d+)/.exec(row);
    if (header) {
      current = { commit: header[1]!, line: Number(header[2]), path: '', boundary: false };
    } else if (row === 'boundary' && current) {
      current.boundary = true;
    } else if (row.startsWith('filename ') && current) {
      current.path = row.slice('filename '.length);
    } else if (row.startsWith('\t') && current) {
      lines.push(current);
      current = undefined;
    }
  }
  return lines;
}
