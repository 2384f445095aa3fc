// Pure formatting helpers of the console (no DOM, no imports: unit-tested under Node).

/** "0 B", "812 B", "1.2 KB", "3.4 MB": sizes as people read them (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toString()} ${units[unit]}`;
}

/** 1234 → "1,234". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 file", "3 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The first 7 hex digits of a commit, as git shows it; "–" when there is none. */
export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 7) : '–';
}

/** "just now", "12 s ago", "4 min ago", "3 h ago", "2 d ago"; "–" without a time. */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '–';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '–';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 2) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "src/a/b.ts" → ["src", "a", "b.ts"]; the root ("" or "/") has no segments. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}

/** The folder holding a path: "src/a/b.ts" → "src/a", "b.ts" → "". */
export function parentFolder(path: string): string {
  const segments = pathSegments(path);
  return segments.slice(0, -1).join('/');
}

/** Going up from `from` to `folder`: the entry of `folder` that leads back (to focus it), or null. */
export function childOnTheWay(folder: string, from: string): string | null {
  const inside = folder === '' ? from : from.startsWith(`${folder}/`) ? from.slice(folder.length + 1) : null;
  const next = inside ? pathSegments(inside)[0] : undefined;
  return next === undefined ? null : folder === '' ? next : `${folder}/${next}`;
}

/** A path as typed into the path box: no leading "./" or "/", no doubled slashes, no spaces around. */
export function normalisePath(typed: string): string {
  return pathSegments(typed.trim()).join('/');
}

/** Each segment percent-encoded, slashes kept: for /v1/.../files/<path>. */
export function encodePath(path: string): string {
  return pathSegments(path).map(encodeURIComponent).join('/');
}

/** A GitHub URL of some lines ("…#L1-L400") as the URL of the whole file at that commit. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** An http(s) URL as given, or null for anything else (a link never runs `javascript:`). */
export function safeUrl(url: string | null | undefined): string | null {
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null;
}

/** Calls `fn` once input has been quiet for `ms` milliseconds; `cancel` drops a pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

/** The GitHub page of commit `sha`, from the GitHub URL of a file at some commit ("…/owner/repo/blob/<sha>/path"); null for any other URL. */
export function commitUrlOf(fileUrl: string | null | undefined, sha: string): string | null {
  const base = typeof fileUrl === 'string' ? /^(https?:\/\/[^?#]+?)\/blob\/[0-9a-f]{7,64}\//i.exec(fileUrl)?.[1] : undefined;
  return base && /^[0-9a-f]{7,64}$/i.test(sha) ? `${base}/commit/${sha}` : null;
}

/** The first line of a commit message (its summary). */
export function firstLine(message: string): string {
  const end = message.indexOf('\n');
  return (end === -1 ? message : message.slice(0, end)).trimEnd();
}
