import { MAX_PATH_CHARS } from '@gitdex/contracts';
import { invalid } from '../tool-error';

/**
 * A path inside a repository as the index stores it: no leading or trailing slash, no
 * empty or "." segments. ".." and NUL bytes are refused, since a path never leaves the
 * repository root. `what` names the argument in messages.
 */
export function normalizeRepoPath(input: string, what: 'path' | 'folder' | 'query'): string {
  if (input.includes('\0')) throw invalid(`${what}: contains a NUL byte; give the path as text, e.g. "src/index.ts"`);
  const segments = input.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw invalid(`${what}: ".." is not allowed: paths start at the repository root, e.g. "src/index.ts"; give the path without ".."`);
  }
  const path = segments.join('/');
  if (path.length > MAX_PATH_CHARS) throw invalid(`${what}: ${path.length.toLocaleString('en-US')} characters; a repository path has at most ${MAX_PATH_CHARS.toLocaleString('en-US')}`);
  return path;
}

/** GitHub URL of a path: each segment percent-encoded, slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
