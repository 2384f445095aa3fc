// The page shown when a route cannot be shown: what was not found (or not indexed, or not
// readable), the API's suggestions as links ("Did you mean …?") and the API's own message.
// A 401 shows no page: the token dialog asks for a token instead.
import { ApiError } from './api.js';
import { fill, h } from './dom.js';
import { fileHash, treeHash } from './route.js';
import type { RepoRoute } from './tree-table.js';
import type { ViewHost } from './view-host.js';

export function showProblem(host: ViewHost, error: unknown, route: RepoRoute): void {
  if (error instanceof ApiError && error.status === 401) {
    host.events.unauthorized(error);
    return;
  }
  const what = route.view === 'tree' ? (route.folder === '' ? 'this repository' : `folder ${route.folder}`) : `file ${route.path}`;
  const children: (Node | string)[] = [];
  if (error instanceof ApiError) {
    const title =
      error.code === 'NOT_FOUND'
        ? `Not found: ${what}`
        : error.code === 'REPOSITORY_NOT_FOUND'
          ? `No repository ${route.owner}/${route.repo} that you can read`
          : error.code === 'NOT_INDEXED'
            ? `${route.owner}/${route.repo} is not indexed yet`
            : `Cannot show ${what}`;
    children.push(h('h3', {}, title));
    if (error.suggestions.length > 0) {
      const repository = error.code === 'REPOSITORY_NOT_FOUND';
      children.push(
        h('p', { class: 'did-you-mean-label' }, 'Did you mean:'),
        h(
          'ul',
          { class: 'did-you-mean' },
          error.suggestions.map((s) => {
            const [owner = '', repo = ''] = s.split('/');
            const href = repository ? treeHash(owner, repo, '') : route.view === 'tree' ? treeHash(route.owner, route.repo, s) : fileHash(route.owner, route.repo, s);
            return h('li', {}, h('a', { href }, s));
          }),
        ),
      );
    }
    children.push(h('p', { class: 'muted api-message' }, `${error.code}: ${error.message}`));
  } else {
    children.push(h('h3', {}, `Cannot show ${what}`), h('p', {}, error instanceof Error ? error.message : String(error)));
  }
  fill(host.view, h('div', { class: 'problem', role: 'alert', 'data-code': error instanceof ApiError ? error.code : 'ERROR' }, children));
  document.title = `Not found · ${route.owner}/${route.repo} · gitdex`;
}
