// The console's places, kept in the URL fragment so that the page needs one server route
// (`/`), every view is a link that can be bookmarked or shared, and Back works:
//
//   #/                         the repositories
//   #/owner/repo               the repository's root folder
//   #/owner/repo/tree/a/b      folder a/b
//   #/owner/repo/blob/a/b.ts   file a/b.ts
//   #/owner/repo/blob/a/b.ts?line=12   file a/b.ts at line 12 (a search result)
//   #/owner/repo/blob/a/b.ts?blame=1   file a/b.ts with its blame beside the lines
//
// Every segment is percent-encoded. Pure: no DOM, no imports (unit-tested under Node).

export type Route = { view: 'home' } | { view: 'tree'; owner: string; repo: string; folder: string } | { view: 'file'; owner: string; repo: string; path: string; line?: number; blame?: true };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route a fragment names; anything unrecognised is home. */
export function parseRoute(hash: string): Route {
  const [where = '', query = ''] = hash.replace(/^#/, '').split('?', 2);
  const segments = where
    .split('/')
    .filter((s) => s !== '')
    .map(decode);
  const [owner, repo, kind, ...rest] = segments;
  if (owner === undefined || repo === undefined) return { view: 'home' };
  const path = rest.filter((s) => s !== '.' && s !== '..').join('/');
  const line = Number(/(?:^|&)line=(\d{1,9})(?:&|$)/.exec(query)?.[1] ?? 0);
  const blame = /(?:^|&)blame=1(?:&|$)/.test(query);
  if (kind === 'blob' && path !== '') return { view: 'file', owner, repo, path, ...(line > 0 ? { line } : {}), ...(blame ? { blame: true as const } : {}) };
  if (kind === 'tree') return { view: 'tree', owner, repo, folder: path };
  return { view: 'tree', owner, repo, folder: '' };
}

/** The fragment of a route, "#/…". */
export function routeHash(route: Route): string {
  if (route.view === 'home') return '#/';
  const base = `#/${encodeURIComponent(route.owner)}/${encodeURIComponent(route.repo)}`;
  const path = route.view === 'tree' ? route.folder : route.path;
  const encoded = path
    .split('/')
    .filter((s) => s !== '')
    .map(encodeURIComponent)
    .join('/');
  if (route.view === 'tree') return encoded === '' ? base : `${base}/tree/${encoded}`;
  const query = [route.line !== undefined && route.line > 0 ? `line=${route.line}` : '', route.blame ? 'blame=1' : ''].filter((q) => q !== '').join('&');
  return `${base}/blob/${encoded}${query === '' ? '' : `?${query}`}`;
}

export const treeHash = (owner: string, repo: string, folder: string): string => routeHash({ view: 'tree', owner, repo, folder });
export const fileHash = (owner: string, repo: string, path: string, line?: number): string =>
  routeHash(line !== undefined ? { view: 'file', owner, repo, path, line } : { view: 'file', owner, repo, path });

/** "owner/repo" of a route, or null at home. */
export function routeRepository(route: Route): string | null {
  return route.view === 'home' ? null : `${route.owner}/${route.repo}`;
}
