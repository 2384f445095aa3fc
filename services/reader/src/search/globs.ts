import { RE2JS } from 're2js';
import { invalid } from '../tool-error';
import { programSize } from './program-size';

/**
 * Largest program a field's globs may compile to together: each candidate path is tested
 * against it, up to 8,000 paths a page (20 globs of 1,000 characters cost ~1.4 ms a path, ~11 s
 * a page). At this size a path costs a few microseconds.
 */
export const MAX_GLOB_PROGRAM = 2_000;

/**
 * Path globs of search_code: `*` any characters but "/", `**` any folders (also none),
 * `?` one character but "/", `[abc]` / `[!abc]` classes, `{a,b}` alternatives. A glob
 * without "/" matches the file name at any depth ("*.ts"); one ending in "/" everything
 * under that folder. Compiled to RE2, so no glob makes matching slow.
 */
export type PathMatcher = (path: string) => boolean;

function escape(ch: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch;
}

export function globToRegex(glob: string): string {
  let g = glob.trim().replace(/^\.?\/+/, '');
  if (g.endsWith('/')) g += '**';
  if (!g.includes('/')) g = `**/${g}`;
  let out = '';
  let braces = 0;
  for (let i = 0; i < g.length; i += 1) {
    const c = g[i] as string;
    if (c === '*') {
      if (g[i + 1] === '*') {
        const slashAfter = g[i + 2] === '/';
        const atStart = i === 0 || g[i - 1] === '/';
        if (atStart && slashAfter) {
          out += '(?:[^/]*/)*';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = g.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = g.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{') {
      braces += 1;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces -= 1;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += escape(c);
  }
  if (braces > 0) throw invalid(`path: the glob "${glob}" opens a "{" it never closes`);
  return `^${out}$`;
}

/** One matcher for a list of globs (any of them), or null when none are given. */
export function compileGlobs(globs: string | string[] | undefined, field: 'path' | 'exclude'): PathMatcher | null {
  if (globs === undefined) return null;
  const list = Array.isArray(globs) ? globs : [globs];
  if (list.length === 0) return null;
  const pattern = list.map((g) => `(?:${globToRegex(g)})`).join('|');
  const size = programSize(pattern);
  if (size > MAX_GLOB_PROGRAM) {
    throw invalid(
      `${field}: these globs are too long together (they compile to about ${size.toLocaleString('en-US')} instructions, at most ${MAX_GLOB_PROGRAM.toLocaleString('en-US')}): give fewer or shorter globs, e.g. a folder ("src/") or an extension ("*.ts")`,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    throw invalid(`${field}: not a glob gitdex understands (${error instanceof Error ? error.message : String(error)}); use *, **, ?, [abc] and {a,b}`);
  }
  return (path) => re.test(path);
}
