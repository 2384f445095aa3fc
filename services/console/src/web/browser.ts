// The file browser: breadcrumbs, a folder listing (folders first with file counts, files with
// sizes, paged with the API's cursor) and a file view with line numbers and a link to GitHub
// at the indexed commit. Everything comes from /v1; a path that is not found answers with
// the API's suggestions ("Did you mean …?"). This class keeps what is shown and the navigation in
// progress; the header, the folder listing, the file view and the error page draw in their own modules.
import type { RepositoryOverviewOutput, RepositoryState } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h } from './dom.js';
import { showFile } from './file-view.js';
import { showFolder } from './folder-view.js';
import { childOnTheWay, shortSha } from './format.js';
import { PathBox } from './pathbox.js';
import { showProblem } from './problem-view.js';
import { renderBreadcrumbs, renderRepositoryMeta } from './repository-header.js';
import { fileHash, parseRoute, treeHash, type Route } from './route.js';
import type { RepoRoute } from './tree-table.js';
import type { BrowserEvents, ViewHost } from './view-host.js';

export type { BrowserEvents } from './view-host.js';

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
  /** What the views may touch of this browser. */
  private readonly host: ViewHost;

  constructor(
    private readonly el: BrowserElements,
    private readonly events: BrowserEvents,
  ) {
    this.pathBox = new PathBox(el.pathForm, el.pathInput, el.pathList, el.pathStatus, {
      open: (path, kind) => this.navigate(kind === 'folder' ? treeHash(this.owner, this.repo, path) : fileHash(this.owner, this.repo, path)),
      unauthorized: (error) => events.unauthorized(error),
    });
    this.host = {
      view: el.view,
      events,
      signal: () => this.controller?.signal,
      shownCommit: () => this.shownCommit,
      showsCommit: (commit) => {
        this.shownCommit = commit;
      },
      refresh: () => void this.refresh(),
    };
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
    renderBreadcrumbs(this.el.breadcrumbs, route);
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
      if (route.view === 'tree') await showFolder(this.host, route, signal, focus, this.cameFrom);
      else await showFile(this.host, route, signal, focus);
      if (!sameRepository && focus && !this.el.view.contains(document.activeElement)) this.el.heading.focus();
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      showProblem(this.host, error, route);
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
    // The address may hold more than the route drawn (the blame toggle rewrites it in place).
    const current = parseRoute(location.hash);
    await this.show(current.view !== 'home' && current.owner === this.route.owner && current.repo === this.route.repo ? current : this.route, true);
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
    renderRepositoryMeta(this.el.meta, this.overview, this.state);
  }
}
