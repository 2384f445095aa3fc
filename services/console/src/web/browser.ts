// The file browser: breadcrumbs, a folder listing (folders first with file counts, files with
// sizes, paged with the API's cursor) and a file view with line numbers and a link to GitHub
// at the indexed commit. Everything comes from /v1; a path that is not found answers with
// the API's suggestions ("Did you mean …?").
import type { ListFilesOutput, ReadFileOutput, RepositoryOverviewOutput, RepositoryState } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h, time } from './dom.js';
import { childOnTheWay, formatBytes, formatCount, parentFolder, pathSegments, plural, relativeTime, safeUrl, shortSha, withoutFragment } from './format.js';
import { PathBox } from './pathbox.js';
import { fileHash, treeHash, type Route } from './route.js';
import { enableTreeKeys, fileBadges, rove, treeRow, type RepoRoute } from './tree-table.js';

export interface BrowserElements {
  section: HTMLElement;
  heading: HTMLElement;
  meta: HTMLElement;
  notice: HTMLElement;
  breadcrumbs: HTMLElement;
  view: HTMLElement;
  pathForm: HTMLFormElement;
  pathInput: HTMLInputElement;
  pathList: HTMLUListElement;
  pathStatus: HTMLElement;
}

export interface BrowserEvents {
  unauthorized(error: ApiError): void;
  announce(message: string): void;
}

export class Browser {
  private route: RepoRoute | null = null;
  private overview: RepositoryOverviewOutput | null = null;
  private state: RepositoryState | null = null;
  /** The last poll's answer, for the header of a repository opened between polls. */
  private states: readonly RepositoryState[] = [];
  /** The commit the current view shows (from its answer's freshness). */
  private shownCommit: string | null = null;
  private controller: AbortController | null = null;
  /** Where the listing came from, to put focus back on it after going up. */
  private cameFrom: string | null = null;
  /** The commit whose overview was last asked for after a poll. */
  private overviewWanted: string | null = null;
  private readonly pathBox: PathBox;

  constructor(
    private readonly el: BrowserElements,
    private readonly events: BrowserEvents,
  ) {
    this.pathBox = new PathBox(el.pathForm, el.pathInput, el.pathList, el.pathStatus, {
      open: (path, kind) => this.navigate(kind === 'folder' ? treeHash(this.owner, this.repo, path) : fileHash(this.owner, this.repo, path)),
      unauthorized: (error) => events.unauthorized(error),
    });
  }

  private get owner(): string {
    return this.route?.owner ?? '';
  }

  private get repo(): string {
    return this.route?.repo ?? '';
  }

  /** Shows a route; `focus` moves keyboard focus to the new content (after a navigation). */
  async show(route: Route, focus: boolean): Promise<void> {
    this.controller?.abort();
    if (route.view === 'home') {
      this.clear();
      return;
    }
    const sameRepository = this.route !== null && this.route.owner.toLowerCase() === route.owner.toLowerCase() && this.route.repo.toLowerCase() === route.repo.toLowerCase();
    const previous = this.route;
    this.route = route;
    this.el.section.hidden = false;
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    this.pathBox.setTarget({ owner: route.owner, repo: route.repo }, route.view === 'file' ? route.path : route.folder === '' ? '' : `${route.folder}/`);
    this.renderBreadcrumbs(route);
    if (!sameRepository) {
      this.overview = null;
      this.shownCommit = null;
      this.state = this.stateOf(this.states);
      fill(this.el.heading, `${route.owner}/${route.repo}`);
      this.renderMeta();
      this.hideNotice();
    }
    this.cameFrom = sameRepository && previous && route.view === 'tree' ? childOnTheWay(route.folder, previous.view === 'tree' ? previous.folder : previous.path) : null;
    this.el.view.setAttribute('aria-busy', 'true');
    try {
      if (!sameRepository || !this.overview) void this.loadOverview(route, signal);
      if (route.view === 'tree') await this.showTree(route, signal, focus);
      else await this.showFile(route, signal, focus);
      if (!sameRepository && focus && !this.el.view.contains(document.activeElement)) this.el.heading.focus();
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      this.showError(error, route);
      if (focus) this.el.heading.focus();
    } finally {
      if (this.controller === controller) this.el.view.removeAttribute('aria-busy');
    }
  }

  /** The latest poll of the repositories: freshness in the header, and a notice when the view is behind. */
  onStates(states: readonly RepositoryState[]): void {
    this.states = states;
    if (!this.route) return;
    this.state = this.stateOf(states);
    // A new commit: its overview (counts, languages) too, once.
    const commit = this.state?.commit ?? null;
    if (commit && this.overview && this.overview.freshness.commit !== commit && this.overviewWanted !== commit && this.controller) {
      this.overviewWanted = commit;
      void this.loadOverview(this.route, this.controller.signal);
    }
    this.renderMeta();
    const latest = this.state?.commit ?? null;
    if (latest && this.shownCommit && latest !== this.shownCommit) {
      if (this.el.notice.dataset.commit !== latest) {
        this.el.notice.dataset.commit = latest;
        fill(
          this.el.notice,
          h('span', {}, 'A newer commit ', h('code', { class: 'sha' }, shortSha(latest)), ' was indexed; this view shows ', h('code', { class: 'sha' }, shortSha(this.shownCommit)), '. '),
          h('button', { type: 'button', class: 'button', onclick: () => void this.refresh() }, `Show ${shortSha(latest)}`),
        );
        this.el.notice.hidden = false;
      }
    } else this.hideNotice();
  }

  private stateOf(states: readonly RepositoryState[]): RepositoryState | null {
    const key = this.route ? `${this.route.owner}/${this.route.repo}`.toLowerCase() : null;
    return states.find((s) => s.repository.toLowerCase() === key) ?? null;
  }

  /** Shows the current route again at the newest commit. */
  async refresh(): Promise<void> {
    if (!this.route) return;
    this.overview = null;
    this.hideNotice();
    await this.show(this.route, true);
  }

  /** Hides the browser and forgets what it showed. */
  clear(): void {
    this.controller?.abort();
    this.route = null;
    this.overview = null;
    this.state = null;
    this.states = [];
    this.shownCommit = null;
    this.el.section.hidden = true;
    this.el.view.replaceChildren();
    this.el.breadcrumbs.replaceChildren();
    this.el.meta.replaceChildren();
    this.el.heading.textContent = '';
    this.hideNotice();
    this.pathBox.setTarget(null, '');
  }

  currentRepository(): string | null {
    return this.route ? `${this.route.owner}/${this.route.repo}` : null;
  }

  private navigate(hash: string): void {
    if (location.hash === hash) void this.refresh();
    else location.hash = hash;
  }

  private hideNotice(): void {
    this.el.notice.hidden = true;
    delete this.el.notice.dataset.commit;
    this.el.notice.replaceChildren();
  }

  private async loadOverview(route: RepoRoute, signal: AbortSignal): Promise<void> {
    try {
      this.overview = await api.overview(route.owner, route.repo, signal);
      this.renderMeta();
    } catch (error) {
      if (isAbort(error)) {
        this.overviewWanted = null;
        return;
      }
      if (error instanceof ApiError && error.status === 401) this.events.unauthorized(error);
      // The view shows the error that matters (not found, not indexed); the header stays short.
    }
  }

  private renderMeta(): void {
    const o = this.overview;
    const s = this.state;
    const now = Date.now();
    const parts: (Node | string)[] = [];
    const add = (...nodes: (Node | string)[]) => {
      if (parts.length > 0) parts.push(' · ');
      parts.push(...nodes);
    };
    const branch = o?.default_branch ?? s?.default_branch;
    if (branch) add('branch ', h('strong', {}, branch));
    const commit = s?.commit ?? o?.freshness.commit;
    if (commit) add('commit ', h('code', { class: 'sha', title: commit }, shortSha(commit)));
    const indexedAt = s?.indexed_at ?? o?.freshness.indexed_at ?? null;
    if (indexedAt) add('indexed ', time(indexedAt, relativeTime(indexedAt, now)));
    // Counts of the overview only while it describes the commit shown in this header.
    const current = o && (!commit || o.freshness.commit === commit) ? o : null;
    if (current) add(plural(current.file_count, 'file'), ` (${formatCount(current.code_files)} code, ${formatCount(current.documentation_files)} docs, ${formatBytes(current.total_bytes)})`);
    else if (s?.indexed) add(plural(s.file_count, 'file'));
    if (current && current.languages.length > 0)
      add(
        current.languages
          .slice(0, 4)
          .map((l) => `${l.language} ${formatCount(l.files)}`)
          .join(', '),
      );
    if (s?.pending) add(h('span', { class: 'badge badge-pending' }, `push ${shortSha(s.pending_commit)} being indexed`));
    if (s?.status === 'failed') add(h('span', { class: 'status status-failed' }, 'last index failed'));
    const repositoryUrl = safeUrl(o?.html_url);
    if (repositoryUrl) add(h('a', { href: repositoryUrl, rel: 'noreferrer' }, 'GitHub'));
    fill(this.el.meta, parts);
  }

  private renderBreadcrumbs(route: RepoRoute): void {
    const path = route.view === 'tree' ? route.folder : route.path;
    const segments = pathSegments(path);
    const items: HTMLLIElement[] = [];
    const crumb = (label: string, href: string, current: boolean) => h('li', {}, current ? h('a', { href, 'aria-current': 'page' }, label) : h('a', { href }, label));
    items.push(crumb(`${route.owner}/${route.repo}`, treeHash(route.owner, route.repo, ''), segments.length === 0));
    segments.forEach((segment, i) => {
      const sub = segments.slice(0, i + 1).join('/');
      const last = i === segments.length - 1;
      const href = last && route.view === 'file' ? fileHash(route.owner, route.repo, sub) : treeHash(route.owner, route.repo, sub);
      items.push(crumb(segment, href, last));
    });
    fill(this.el.breadcrumbs, h('ol', {}, items));
  }

  // ------------------------------------------------------------------ folder listing

  private async showTree(route: Extract<Route, { view: 'tree' }>, signal: AbortSignal, focus: boolean): Promise<void> {
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
    this.shownCommit = page.freshness.commit;
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
      this.renderTreeFooter(footer, route, p, tbody, appendPage);
      return first;
    };
    appendPage(page);
    if (page.total_entries === 0) tbody.append(h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'This folder is empty.')));
    const wrap = h('div', { class: 'table-wrap' }, table);
    fill(this.el.view, wrap, footer);
    enableTreeKeys(table, route);

    const links = [...table.querySelectorAll<HTMLAnchorElement>('a.entry')];
    const target = (this.cameFrom !== null ? links.find((a) => a.dataset.path === this.cameFrom) : undefined) ?? links.find((a) => !a.closest('.entry-up')) ?? links[0];
    rove(table, target ?? null);
    if (focus && target) target.focus();
  }

  private renderTreeFooter(
    footer: HTMLElement,
    route: Extract<Route, { view: 'tree' }>,
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
        h('a', { href: treeHash(route.owner, route.repo, route.folder), onclick: (e) => (e.preventDefault(), void this.refresh()) }, 'Start again'),
      );
    }
    if (page.next_cursor) {
      const cursor = page.next_cursor;
      const more = h('button', { type: 'button', class: 'button' }, `Show ${formatCount(Math.min(page.remaining, 200))} more`);
      more.addEventListener('click', () => {
        more.disabled = true;
        const signal = this.controller?.signal;
        api
          .tree(route.owner, route.repo, route.folder, cursor, signal)
          .then((next) => {
            const first = appendPage(next);
            const table = tbody.closest('table');
            if (first && table) {
              rove(table, first);
              first.focus();
            }
            this.events.announce(`${formatCount(next.entries.length)} more entries shown.`);
          })
          .catch((error: unknown) => {
            if (isAbort(error)) return;
            more.disabled = false;
            if (error instanceof ApiError && error.status === 401) this.events.unauthorized(error);
            footer.append(
              h(
                'p',
                { class: 'error-text', role: 'alert' },
                error instanceof Error ? error.message : String(error),
                error instanceof ApiError && error.code === 'CURSOR_EXPIRED' ? [' ', h('button', { type: 'button', class: 'button', onclick: () => void this.refresh() }, 'Start again')] : [],
              ),
            );
          });
      });
      parts.push(' ', more);
    }
    fill(footer, h('p', {}, parts));
  }

  /** One entry of the listing is in the tab order (roving tabindex); arrows move between them. */

  private async showFile(route: Extract<Route, { view: 'file' }>, signal: AbortSignal, focus: boolean): Promise<void> {
    let file: ReadFileOutput;
    try {
      // From a search result: start a few lines above the match, so it shows with its context.
      file = await api.file(route.owner, route.repo, route.path, route.line !== undefined ? Math.max(1, route.line - 10) : undefined, signal);
    } catch (error) {
      // A folder given as a file: list it instead.
      if (error instanceof ApiError && error.code === 'INVALID_ARGUMENT') {
        // Not listable as a folder either: the file's own error below is what the page shows.
        const folder = await api.tree(route.owner, route.repo, route.path, undefined, signal).catch(() => null);
        if (folder) {
          location.replace(treeHash(route.owner, route.repo, route.path));
          return;
        }
      }
      throw error;
    }
    this.shownCommit = file.freshness.commit;
    document.title = `${route.path} · ${route.owner}/${route.repo} · gitdex`;
    const name = pathSegments(file.path).pop() ?? file.path;
    const heading = h('h3', { id: 'file-heading', tabindex: -1 }, name);
    const facts: (Node | string)[] = [
      plural(file.total_lines, 'line'),
      ` · ${formatBytes(file.size)}`,
      file.language ? ` · ${file.language}` : '',
      ' · commit ',
      h('code', { class: 'sha', title: file.freshness.commit }, shortSha(file.freshness.commit)),
    ];
    const fileUrl = safeUrl(withoutFragment(file.url));
    if (fileUrl) facts.push(' · ', h('a', { href: fileUrl, rel: 'noreferrer', class: 'github-link' }, `View on GitHub at ${shortSha(file.freshness.commit)}`));
    const head = h('div', { class: 'file-head' }, heading, h('p', { class: 'meta' }, facts, ' ', fileBadges(file)));
    const body: HTMLElement[] = [head];
    if (file.note) body.push(h('p', { class: 'note' }, file.note));

    if (file.start_line > 0) {
      const tbody = h('tbody', {});
      const table = h(
        'table',
        { class: 'code', 'data-commit': file.freshness.commit, 'data-path': file.path },
        h('caption', { class: 'visually-hidden' }, `${file.path}, with line numbers`),
        h('thead', { class: 'visually-hidden' }, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Text'))),
        tbody,
      );
      const region = h('div', { class: 'code-wrap', tabindex: 0, role: 'region', 'aria-label': `Contents of ${file.path}` }, table);
      const footer = h('div', { class: 'code-footer' });
      const appendLines = (part: ReadFileOutput) => {
        const lines = part.content.split('\n');
        const rows = lines.map((text, i) => {
          const n = part.start_line + i;
          const attrs = n === route.line ? { id: `L${n}`, class: 'hit', 'aria-current': 'true' } : { id: `L${n}` };
          return h('tr', attrs, h('td', { class: 'ln' }, String(n)), h('td', { class: 'line' }, h('code', {}, text === '' ? '\u200b' : text)));
        });
        tbody.append(...rows);
        this.renderFileFooter(footer, route, part, appendLines);
      };
      appendLines(file);
      body.push(region, footer);
    } else if (!file.note) {
      body.push(h('p', { class: 'muted' }, 'This file is empty.'));
    }
    fill(this.el.view, body);
    if (focus) heading.focus();
    if (route.line !== undefined) document.getElementById(`L${route.line}`)?.scrollIntoView({ block: 'center' });
  }

  private renderFileFooter(footer: HTMLElement, route: Extract<Route, { view: 'file' }>, part: ReadFileOutput, appendLines: (p: ReadFileOutput) => void): void {
    const parts: (Node | string)[] = [];
    if (part.next_start_line !== null) {
      const start = part.next_start_line;
      parts.push(`Lines 1–${formatCount(part.end_line)} of ${formatCount(part.total_lines)}. `);
      const more = h('button', { type: 'button', class: 'button' }, `Show more lines from ${formatCount(start)}`);
      more.addEventListener('click', () => {
        more.disabled = true;
        api
          .file(route.owner, route.repo, route.path, start, this.controller?.signal)
          .then((next) => {
            if (next.freshness.commit !== this.shownCommit) {
              footer.append(
                h(
                  'p',
                  { class: 'error-text', role: 'alert' },
                  `The file changed: commit ${shortSha(next.freshness.commit)} was indexed since. `,
                  h('button', { type: 'button', class: 'button', onclick: () => void this.refresh() }, 'Show it'),
                ),
              );
              return;
            }
            appendLines(next);
            document.getElementById(`L${next.start_line}`)?.querySelector('td.line')?.scrollIntoView({ block: 'nearest' });
            this.events.announce(`Lines ${next.start_line} to ${next.end_line} shown.`);
          })
          .catch((error: unknown) => {
            if (isAbort(error)) return;
            more.disabled = false;
            if (error instanceof ApiError && error.status === 401) this.events.unauthorized(error);
            footer.append(h('p', { class: 'error-text', role: 'alert' }, error instanceof Error ? error.message : String(error)));
          });
      });
      parts.push(more);
    } else if (part.total_lines > 0) {
      parts.push(`${plural(part.total_lines, 'line')}, end of file.`);
    }
    fill(footer, parts.length > 0 ? h('p', {}, parts) : null);
  }

  // ------------------------------------------------------------------ errors

  private showError(error: unknown, route: RepoRoute): void {
    if (error instanceof ApiError && error.status === 401) {
      this.events.unauthorized(error);
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
    fill(this.el.view, h('div', { class: 'problem', role: 'alert', 'data-code': error instanceof ApiError ? error.code : 'ERROR' }, children));
    document.title = `Not found · ${route.owner}/${route.repo} · gitdex`;
  }
}
