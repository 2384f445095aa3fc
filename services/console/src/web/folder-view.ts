// The folder listing: a table of the folder's entries (rows and keys from tree-table.ts), a ".."
// row to go up, and a footer that pages on with the API's cursor. A file asked for as a folder
// is shown as the file. The repository's root (its page) also lists the default branch's recent
// commits below the listing.
import type { ListFilesOutput } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { recentCommits } from './commit-list.js';
import { fill, h } from './dom.js';
import { formatCount, parentFolder, plural, shortSha } from './format.js';
import { fileHash, treeHash, type Route } from './route.js';
import { enableTreeKeys, rove, treeRow } from './tree-table.js';
import type { ViewHost } from './view-host.js';

type TreeRoute = Extract<Route, { view: 'tree' }>;

/** Shows a folder; `cameFrom` is the entry to put focus back on after going up (null: the first entry). */
export async function showFolder(host: ViewHost, route: TreeRoute, signal: AbortSignal, focus: boolean, cameFrom: string | null): Promise<void> {
  let page: ListFilesOutput;
  try {
    page = await api.tree(route.owner, route.repo, route.folder, undefined, signal);
  } catch (error) {
    // A file given as a folder: show the file instead.
    if (error instanceof ApiError && error.code === 'INVALID_ARGUMENT' && route.folder !== '') {
      // Not readable as a file either: the folder's own error below is what the page shows.
      const file = await api.file(route.owner, route.repo, route.folder, undefined, signal).catch(() => null);
      if (file) {
        location.replace(fileHash(route.owner, route.repo, route.folder));
        return;
      }
    }
    throw error;
  }
  host.showsCommit(page.freshness.commit);
  document.title = `${route.folder === '' ? '' : `${route.folder}/ · `}${route.owner}/${route.repo} · gitdex`;

  const tbody = h('tbody', {});
  const table = h(
    'table',
    { class: 'tree', 'data-commit': page.freshness.commit },
    h(
      'caption',
      { class: 'visually-hidden' },
      `${route.folder === '' ? 'Root folder' : `Folder ${route.folder}`} of ${route.owner}/${route.repo} at commit ${shortSha(page.freshness.commit)}. Arrow keys move between entries, Enter opens, Left arrow goes up.`,
    ),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'num' }, 'Size'), h('th', { scope: 'col' }, 'Language'))),
    tbody,
  );
  if (route.folder !== '') {
    const up = parentFolder(route.folder);
    tbody.append(
      h(
        'tr',
        { class: 'entry-up' },
        h('td', { colspan: 3 }, h('a', { href: treeHash(route.owner, route.repo, up), class: 'entry folder', 'data-path': up, 'aria-label': `Up to ${up === '' ? 'the root folder' : up}` }, '..')),
      ),
    );
  }
  const footer = h('div', { class: 'tree-footer' });
  const appendPage = (p: ListFilesOutput): HTMLAnchorElement | null => {
    let first: HTMLAnchorElement | null = null;
    for (const entry of p.entries) {
      const row = treeRow(route, entry);
      tbody.append(row);
      first ??= row.querySelector('a');
    }
    renderTreeFooter(host, footer, route, p, tbody, appendPage);
    return first;
  };
  appendPage(page);
  if (page.total_entries === 0) tbody.append(h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'This folder is empty.')));
  const wrap = h('div', { class: 'table-wrap' }, table);
  fill(host.view, wrap, footer, route.folder === '' ? recentCommits(host, { owner: route.owner, repo: route.repo }, signal) : null);
  enableTreeKeys(table, route);

  const links = [...table.querySelectorAll<HTMLAnchorElement>('a.entry')];
  const target = (cameFrom !== null ? links.find((a) => a.dataset.path === cameFrom) : undefined) ?? links.find((a) => !a.closest('.entry-up')) ?? links[0];
  rove(table, target ?? null);
  if (focus && target) target.focus();
}

function renderTreeFooter(
  host: ViewHost,
  footer: HTMLElement,
  route: TreeRoute,
  page: ListFilesOutput,
  tbody: HTMLTableSectionElement,
  appendPage: (p: ListFilesOutput) => HTMLAnchorElement | null,
): void {
  const shown = page.offset + page.entries.length;
  const parts: (Node | string)[] = [
    h(
      'span',
      {},
      `${formatCount(shown)} of ${plural(page.total_entries, 'entry', 'entries')} at commit `,
      h('code', { class: 'sha', title: page.freshness.commit }, shortSha(page.freshness.commit)),
      '.',
    ),
  ];
  if (page.superseded_by) {
    parts.push(
      h('span', { class: 'note-inline' }, ` This listing stays at that commit; ${shortSha(page.superseded_by)} was indexed since. `),
      h('a', { href: treeHash(route.owner, route.repo, route.folder), onclick: (e) => (e.preventDefault(), host.refresh()) }, 'Start again'),
    );
  }
  if (page.next_cursor) {
    const cursor = page.next_cursor;
    const more = h('button', { type: 'button', class: 'button' }, `Show ${formatCount(Math.min(page.remaining, 200))} more`);
    more.addEventListener('click', () => {
      more.disabled = true;
      const signal = host.signal();
      api
        .tree(route.owner, route.repo, route.folder, cursor, signal)
        .then((next) => {
          const first = appendPage(next);
          const table = tbody.closest('table');
          if (first && table) {
            rove(table, first);
            first.focus();
          }
          host.events.announce(`${formatCount(next.entries.length)} more entries shown.`);
        })
        .catch((error: unknown) => {
          if (isAbort(error)) return;
          more.disabled = false;
          if (error instanceof ApiError && error.status === 401) host.events.unauthorized(error);
          footer.append(
            h(
              'p',
              { class: 'error-text', role: 'alert' },
              error instanceof Error ? error.message : String(error),
              error instanceof ApiError && error.code === 'CURSOR_EXPIRED' ? [' ', h('button', { type: 'button', class: 'button', onclick: () => host.refresh() }, 'Start again')] : [],
            ),
          );
        });
    });
    parts.push(' ', more);
  }
  fill(footer, h('p', {}, parts));
}
