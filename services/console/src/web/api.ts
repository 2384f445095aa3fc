// The console's only way to gitdex: the public REST API under /v1, with the reader token
// (if any) as "Authorization: Bearer". Paths are relative to the page, so a console served
// under a prefix by a reverse proxy (https://host/gitdex/) calls https://host/gitdex/v1/….
import type {
  BlameOutput,
  FileOutlineOutput,
  FindSymbolOutput,
  ListCommitsOutput,
  ListFilesOutput,
  ReadFileOutput,
  RepositoriesStateOutput,
  RepositoryOverviewOutput,
  SearchCodeOutput,
  SuggestPathsOutput,
} from '@gitdex/contracts';
import { encodePath } from './format.js';

/** An answer other than 2xx, as the API words it ({ error: { code, message, suggestions? } }). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestions: readonly string[] = [],
    /** Seconds to wait before asking again (429 RATE_LIMITED, 503 UNAVAILABLE), when the answer says. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

const TOKEN_KEY = 'gitdex.console.token';

/** The reader token of this tab (sessionStorage: gone when the tab closes, never sent elsewhere). */
export function readToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (private mode quotas): the token then lasts until reload.
  }
  memoryToken = token;
}

let memoryToken: string | null = readToken();

type Params = Record<string, string | number | undefined>;

let renew: (() => Promise<boolean>) | null = null;

/** How a refused token is renewed once before the 401 reaches the page (a signed-in tab's refresh token). */
export function renewTokenWith(refresh: () => Promise<boolean>): void {
  renew = refresh;
}

async function get<T>(path: string, params: Params = {}, signal?: AbortSignal, renewed = false): Promise<T> {
  const url = new URL(path, document.baseURI);
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = memoryToken ?? readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, cache: 'no-store', credentials: 'same-origin', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, 'NETWORK', 'gitdex does not answer: check that it is running and reachable from this browser.');
  }
  if (response.status === 401 && token && renew && !renewed && (await renew())) return get<T>(path, params, signal, true);
  const body: unknown = await response.json().catch((error: unknown) => {
    if (isAbort(error) || signal?.aborted) throw error;
    return null;
  });
  if (response.ok && body !== null) return body as T;
  const error = (body as { error?: { code?: unknown; message?: unknown; suggestions?: unknown; retry_after_seconds?: unknown } } | null)?.error;
  const retryAfter = Number(response.headers.get('Retry-After') ?? error?.retry_after_seconds);
  throw new ApiError(
    response.status,
    typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
    typeof error?.message === 'string' ? error.message : `gitdex answered ${response.status} ${response.statusText}`.trim(),
    Array.isArray(error?.suggestions) ? error.suggestions.filter((s): s is string => typeof s === 'string') : [],
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

const repoPath = (owner: string, repo: string) => `v1/repositories/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

export const api = {
  repositories: (signal?: AbortSignal) => get<RepositoriesStateOutput>('v1/repositories', {}, signal),
  overview: (owner: string, repo: string, signal?: AbortSignal) => get<RepositoryOverviewOutput>(repoPath(owner, repo), {}, signal),
  tree: (owner: string, repo: string, folder: string, cursor: string | undefined, signal?: AbortSignal) =>
    get<ListFilesOutput>(`${repoPath(owner, repo)}/tree`, cursor ? { cursor } : { folder, limit: 200 }, signal),
  file: (owner: string, repo: string, path: string, startLine: number | undefined, signal?: AbortSignal) =>
    get<ReadFileOutput>(`${repoPath(owner, repo)}/files/${encodePath(path)}`, { start_line: startLine }, signal),
  search: (query: string, options: { regex: boolean; repositories?: string; path?: string; cursor?: string }, signal?: AbortSignal) =>
    get<SearchCodeOutput>(
      'v1/search',
      { q: query, regex: options.regex ? 'true' : undefined, repositories: options.repositories, path: options.path, cursor: options.cursor, context_lines: 1, limit: 20 },
      signal,
    ),
  symbols: (name: string, options: { repositories?: string; path?: string }, signal?: AbortSignal) =>
    get<FindSymbolOutput>('v1/symbols', { q: name, repositories: options.repositories, path: options.path, limit: 10 }, signal),
  outline: (owner: string, repo: string, path: string, signal?: AbortSignal) => get<FileOutlineOutput>(`${repoPath(owner, repo)}/outline/${encodePath(path)}`, {}, signal),
  suggest: (owner: string, repo: string, query: string, signal?: AbortSignal) => get<SuggestPathsOutput>(`${repoPath(owner, repo)}/suggest`, { q: query, limit: 8 }, signal),
  /** The default branch's commits, newest first; with `path`, those that changed it. The cursor keeps the commit paged from, not the path: both are sent. */
  commits: (owner: string, repo: string, options: { path?: string; cursor?: string; limit: number }, signal?: AbortSignal) =>
    get<ListCommitsOutput>(`${repoPath(owner, repo)}/commits`, { path: options.path, cursor: options.cursor, limit: options.limit }, signal),
  blame: (owner: string, repo: string, path: string, signal?: AbortSignal) => get<BlameOutput>(`${repoPath(owner, repo)}/blame/${encodePath(path)}`, {}, signal),
};
