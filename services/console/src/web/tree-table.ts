// The folder listing's rows and its keyboard: a row per entry (folders first, with their file
// counts; files with size, language and badges) and a roving tab stop moved with the arrow keys
// (moved out of browser.ts unchanged).
import type { FileEntry, ListEntry } from '@gitdex/contracts';
import { h } from './dom.js';
import { formatBytes, parentFolder, plural, shortSha } from './format.js';
import { fileHash, treeHash, type Route } from './route.js';

/** A route that names a repository (every route but home). */
export type RepoRoute = Exclude<Route, { view: 'home' }>;

export function treeRow(route: RepoRoute, entry: ListEntry): HTMLTableRowElement {
  const name = route.view === 'tree' && route.folder !== '' && entry.path.startsWith(`${route.folder}/`) ? entry.path.slice(route.folder.length + 1) : entry.path;
  if (entry.type === 'folder') {
    return h(
      'tr',
      { class: 'entry-folder' },
      h('td', {}, h('a', { href: treeHash(route.owner, route.repo, entry.path), class: 'entry folder', 'data-path': entry.path }, `${name}/`)),
      h('td', { class: 'num' }, plural(entry.file_count, 'file')),
      h('td', { class: 'muted' }, 'folder'),
    );
  }
  return h(
    'tr',
    { class: 'entry-file' },
    h('td', {}, h('a', { href: fileHash(route.owner, route.repo, entry.path), class: 'entry file', 'data-path': entry.path }, name), fileBadges(entry)),
    h('td', { class: 'num' }, entry.kind === 'submodule' ? 'submodule' : formatBytes(entry.size)),
    h('td', {}, entry.language ?? h('span', { class: 'muted' }, '–')),
  );
}

export function fileBadges(entry: Pick<FileEntry, 'kind' | 'flags' | 'target'>): HTMLElement[] {
  const badges: HTMLElement[] = [];
  if (entry.kind === 'symlink') badges.push(h('span', { class: 'badge' }, `→ ${entry.target ?? 'symlink'}`));
  if (entry.kind === 'submodule') badges.push(h('span', { class: 'badge' }, `submodule @ ${shortSha(entry.target)}`));
  if (entry.flags.binary) badges.push(h('span', { class: 'badge' }, 'binary'));
  if (entry.flags.too_large) badges.push(h('span', { class: 'badge' }, 'too large'));
  if (entry.flags.vendored) badges.push(h('span', { class: 'badge' }, 'vendored'));
  if (entry.flags.generated) badges.push(h('span', { class: 'badge' }, 'generated'));
  return badges;
}

export function rove(table: HTMLTableElement, target: HTMLAnchorElement | null): void {
  for (const link of table.querySelectorAll<HTMLAnchorElement>('a.entry')) link.tabIndex = link === target ? 0 : -1;
}

export function enableTreeKeys(table: HTMLTableElement, route: Extract<Route, { view: 'tree' }>): void {
  table.addEventListener('focusin', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a.entry');
    if (link) rove(table, link);
  });
  table.addEventListener('keydown', (event) => {
    const current = (event.target as Element).closest<HTMLAnchorElement>('a.entry');
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    const links = [...table.querySelectorAll<HTMLAnchorElement>('a.entry')];
    const at = links.indexOf(current);
    let next: HTMLAnchorElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = links[Math.min(at + 1, links.length - 1)];
        break;
      case 'ArrowUp':
        next = links[Math.max(at - 1, 0)];
        break;
      case 'Home':
        next = links[0];
        break;
      case 'End':
        next = links[links.length - 1];
        break;
      case 'ArrowRight':
        if (current.classList.contains('folder') && !current.closest('.entry-up')) {
          event.preventDefault();
          current.click();
        }
        return;
      case 'ArrowLeft':
      case 'Backspace':
        if (route.folder !== '') {
          event.preventDefault();
          location.hash = treeHash(route.owner, route.repo, parentFolder(route.folder));
        }
        return;
      case ' ':
        event.preventDefault();
        current.click();
        return;
      default:
        return;
    }
    event.preventDefault();
    if (next) {
      rove(table, next);
      next.focus();
    }
  });
}

// ------------------------------------------------------------------ file view
