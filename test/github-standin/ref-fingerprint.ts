// What a repository's branch-derived facts (default branch, latest commit date) depend on, read
// from the file system without starting git: lists of hundreds of repositories answer from
// facts kept while this is unchanged, instead of running git for every entry of every page.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The git directory of a non-bare or bare repository; null for layouts read only through git (a `.git` file). */
function gitDirOf(dir: string): string | null {
  const dotGit = join(dir, '.git');
  if (existsSync(dotGit)) return statSync(dotGit).isDirectory() ? dotGit : null;
  return existsSync(join(dir, 'HEAD')) ? dir : null;
}

function readOr(path: string, fallback = ''): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

function looseRefs(dir: string, prefix: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) looseRefs(path, `${prefix}${entry.name}/`, out);
    else out.push(`${prefix}${entry.name}=${readOr(path).trim()}`);
  }
}

/**
 * HEAD, packed-refs and every loose branch ref, by content (exact: any branch move or new
 * default branch changes it); null when the layout is not one this can read.
 */
export function refsFingerprint(dir: string): string | null {
  const gitDir = gitDirOf(dir);
  if (!gitDir) return null;
  const parts = [readOr(join(gitDir, 'HEAD')).trim(), readOr(join(gitDir, 'packed-refs'))];
  looseRefs(join(gitDir, 'refs', 'heads'), 'refs/heads/', parts);
  return parts.join('\n');
}
