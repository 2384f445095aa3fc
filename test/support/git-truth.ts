import { execFileSync } from 'node:child_process';

export interface GitEntry {
  path: string;
  mode: string;
  type: 'blob' | 'commit';
  sha: string;
}

/** What GitHub holds for a branch, read with `git ls-tree` from the stand-in's repository. */
export function gitLsTree(repoDir: string, ref: string): Map<string, GitEntry> {
  const out = execFileSync('git', ['-c', 'core.quotepath=false', 'ls-tree', '-r', '-z', '--full-tree', ref], { cwd: repoDir, maxBuffer: 1 << 30 });
  const entries = new Map<string, GitEntry>();
  for (const record of out.toString('utf8').split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode = '', type = '', sha = ''] = record.slice(0, tab).split(' ');
    entries.set(record.slice(tab + 1), { path: record.slice(tab + 1), mode, type: type as GitEntry['type'], sha });
  }
  return entries;
}

export function gitShow(repoDir: string, ref: string, path: string): Buffer {
  return execFileSync('git', ['show', `${ref}:${path}`], { cwd: repoDir, maxBuffer: 1 << 30 });
}

export function gitHead(repoDir: string, ref: string): string {
  return execFileSync('git', ['rev-parse', ref], { cwd: repoDir }).toString().trim();
}
