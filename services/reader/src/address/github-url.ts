/**
 * GitHub URLs as callers paste them: a repository page, a file (blob, raw, blame) with
 * an optional line range, or a folder (tree). Pure: hosts are github.com, its raw host,
 * and the configured web URL (GitHub Enterprise Server).
 */

export interface GithubLocation {
  /** owner/name as written in the URL. */
  fullName: string;
  /** What the URL points at; 'path' is a file or a folder (a pull request's files view). */
  kind: 'repository' | 'file' | 'folder' | 'path';
  /** Decoded segments after blob/tree/raw: the ref, then the path; split by splitRefAndPath. */
  rest: string[];
  /** The ref the URL names outright (a pull request's, or a commit of it): then `rest` is the path alone. */
  ref?: string;
  startLine?: number;
  endLine?: number;
}

const FILE_VIEWS = new Set(['blob', 'raw', 'blame']);

/**
 * Whether the text is a URL or an scp-style git address rather than owner/name or a path.
 * Without a scheme, only when it starts with a GitHub host (github.com, its raw host, or the
 * configured web URL's): a path's first folder may look like a host name
 * (`jdk.jpackage/jdk/…`, `example.com/index.html`) and is still a path.
 */
export function looksLikeUrl(text: string, githubWebUrl: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^git@[^:]+:/i.test(text)) return true;
  const host = /^([^/]+)\//
    .exec(text)?.[1]
    ?.toLowerCase()
    .replace(/^www\./, '');
  return host !== undefined && (host === 'github.com' || host === 'raw.githubusercontent.com' || host === hostOf(githubWebUrl));
}

export function parseGithubUrl(input: string, githubWebUrl: string): GithubLocation | null {
  let text = input.trim();
  const scp = /^git@([^:]+):(.+)$/i.exec(text);
  if (scp) text = `ssh://${scp[1]}/${scp[2]}`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const webHost = hostOf(githubWebUrl);
  const raw = host === 'raw.githubusercontent.com';
  if (!raw && host !== 'github.com' && host !== webHost) return null;

  // A GitHub Enterprise Server may live under a path prefix (https://host/github/...).
  let pathname = url.pathname;
  const prefix = host === webHost ? new URL(githubWebUrl).pathname.replace(/\/+$/, '') : '';
  if (prefix && pathname.startsWith(`${prefix}/`)) pathname = pathname.slice(prefix.length);

  const segments = pathname
    .split('/')
    .filter((s) => s !== '')
    .map(safeDecode);
  if (segments.length < 2) return null;
  const owner = segments[0] as string;
  const name = (segments[1] as string).replace(/\.git$/i, '');
  if (!owner || !name) return null;
  const lines = lineRange(url.hash);
  const fullName = `${owner}/${name}`;

  if (raw) return { fullName, kind: 'file', rest: segments.slice(2), ...lines };
  const view = segments[2];
  if (view === undefined) return { fullName, kind: 'repository', rest: [] };
  if (FILE_VIEWS.has(view)) return { fullName, kind: 'file', rest: segments.slice(3), ...lines };
  if (view === 'tree') return { fullName, kind: 'folder', rest: segments.slice(3) };
  if (view === 'pull') {
    const pull = pullRequestView(segments.slice(3));
    if (pull) return { fullName, ...pull };
  }
  // Other pages of a repository (issues, pulls, commits): the repository itself.
  return { fullName, kind: 'repository', rest: [] };
}

/**
 * A pull request's pages: `pull/N` (and its conversation or checks tabs) is the PR's head ref,
 * `pull/N/files/<path>` a path at it, and `pull/N/commits/<sha>` that commit.
 */
function pullRequestView(segments: string[]): Pick<GithubLocation, 'kind' | 'rest' | 'ref'> | null {
  const [number, tab, ...rest] = segments;
  if (number === undefined || !/^[1-9]\d{0,9}$/.test(number)) return null;
  const ref = `pull/${number}`;
  if (tab === 'commits' && rest[0] !== undefined && /^[0-9a-f]{7,40}$/i.test(rest[0])) return { kind: 'repository', rest: [], ref: rest[0] };
  if (tab === 'files' && rest.length > 0) return { kind: 'path', rest, ref };
  return { kind: 'repository', rest: [], ref };
}

/**
 * Splits "<ref>/<path>" segments. A branch may hold slashes (feature/x), so the longest
 * known branch or tag that the segments start with wins; else the first segment is the ref.
 */
export function splitRefAndPath(rest: string[], knownRefs: string[]): { ref: string | undefined; path: string } {
  if (rest.length === 0) return { ref: undefined, path: '' };
  let best = 0;
  for (const known of knownRefs) {
    const parts = known.split('/');
    if (parts.length > best && parts.length <= rest.length && parts.every((part, i) => part === rest[i])) best = parts.length;
  }
  const take = best > 0 ? best : 1;
  return { ref: rest.slice(0, take).join('/'), path: rest.slice(take).join('/') };
}

/** "#L10", "#L10-L20", "#L10C3-L20C9" → lines. */
export function lineRange(hash: string): { startLine?: number; endLine?: number } {
  const match = /^#L(\d+)(?:C\d+)?(?:-L(\d+)(?:C\d+)?)?$/i.exec(hash);
  if (!match) return {};
  const startLine = Number(match[1]);
  const endLine = match[2] !== undefined ? Number(match[2]) : startLine;
  if (!Number.isSafeInteger(startLine) || startLine < 1 || !Number.isSafeInteger(endLine)) return {};
  return { startLine, endLine };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return 'github.com';
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
