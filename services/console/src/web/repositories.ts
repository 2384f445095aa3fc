// The repositories table: indexed commit, freshness (indexed at, pending push) and failures,
// updated in place on every poll so focus and selection survive, with changed commits marked
// and announced.
import type { RepositoryState } from '@gitdex/contracts';
import { fill, h, time } from './dom.js';
import { formatCount, relativeTime, shortSha } from './format.js';
import { treeHash } from './route.js';

/** How long a changed commit stays marked "new". */
const NEW_FOR_MS = 60_000;

interface Row {
  tr: HTMLTableRowElement;
  link: HTMLAnchorElement;
  cells: { status: HTMLTableCellElement; commit: HTMLTableCellElement; files: HTMLTableCellElement; indexed: HTMLTableCellElement; pending: HTMLTableCellElement; error: HTMLTableCellElement };
}

interface Seen {
  commit: string | null;
  status: string;
  changedAt: number | null;
  previous: string | null;
}

export class RepositoryTable {
  private readonly rows = new Map<string, Row>();
  private readonly seen = new Map<string, Seen>();
  private selected: string | null = null;

  constructor(
    private readonly tbody: HTMLTableSectionElement,
    private readonly summary: HTMLElement,
    private readonly announce: (message: string) => void,
  ) {}

  /** Shows a poll's answer; announces commits that changed since the previous one. */
  update(states: readonly RepositoryState[], omitted: number, now: number): void {
    const messages: string[] = [];
    const keep = new Set<string>();
    states.forEach((state, position) => {
      const key = state.repository.toLowerCase();
      keep.add(key);
      const before = this.seen.get(key);
      const seen: Seen = before ? { ...before } : { commit: state.commit, status: state.status, changedAt: null, previous: null };
      if (before && before.commit !== state.commit && state.commit !== null) {
        seen.previous = before.commit;
        seen.changedAt = now;
        messages.push(
          before.commit ? `${state.repository}: new commit ${shortSha(state.commit)} indexed (was ${shortSha(before.commit)}).` : `${state.repository}: indexed at ${shortSha(state.commit)}.`,
        );
      }
      if (before && before.status !== 'failed' && state.status === 'failed') messages.push(`${state.repository}: indexing failed${state.last_error ? `: ${state.last_error}` : ''}.`);
      seen.commit = state.commit;
      seen.status = state.status;
      this.seen.set(key, seen);

      let row = this.rows.get(key);
      if (!row) {
        row = this.createRow(state);
        this.rows.set(key, row);
      }
      this.fillRow(row, state, seen, now);
      // Keep the API's order (by name) without re-inserting rows that are in place.
      if (this.tbody.children[position] !== row.tr) this.tbody.insertBefore(row.tr, this.tbody.children[position] ?? null);
    });
    for (const [key, row] of this.rows) {
      if (!keep.has(key)) {
        row.tr.remove();
        this.rows.delete(key);
      }
    }
    const failed = states.filter((s) => s.status === 'failed').length;
    const pending = states.filter((s) => s.pending).length;
    fill(
      this.summary,
      states.length === 0
        ? 'No repositories are indexed that you can read. Index one with `gitdex index owner/name`, or point a GitHub webhook at gitdex.'
        : [
            `${formatCount(states.length)} ${states.length === 1 ? 'repository' : 'repositories'}`,
            failed > 0 ? `, ${formatCount(failed)} failed` : '',
            pending > 0 ? `, ${formatCount(pending)} with a push being indexed` : '',
            omitted > 0 ? `; ${formatCount(omitted)} more not listed (the API lists 200 at most)` : '',
            '.',
          ].join(''),
    );
    if (messages.length > 0) this.announce(messages.join(' '));
  }

  /** Marks the repository open in the browser (aria-current), or none. */
  select(repository: string | null): void {
    this.selected = repository?.toLowerCase() ?? null;
    for (const [key, row] of this.rows) {
      const current = key === this.selected;
      row.tr.classList.toggle('selected', current);
      if (current) row.link.setAttribute('aria-current', 'true');
      else row.link.removeAttribute('aria-current');
    }
  }

  /** Forgets everything shown (e.g. when the token is refused: nothing private stays on screen). */
  clear(): void {
    this.tbody.replaceChildren();
    this.rows.clear();
    this.seen.clear();
    this.summary.textContent = '';
  }

  private createRow(state: RepositoryState): Row {
    const [owner = '', repo = ''] = state.repository.split('/');
    const link = h('a', { href: treeHash(owner, repo, '') }, state.repository);
    const cell = (label: string) => h('td', { 'data-label': label });
    const cells = { status: cell('Status'), commit: cell('Commit'), files: cell('Files'), indexed: cell('Indexed'), pending: cell('Pending'), error: cell('Last error') };
    const tr = h('tr', { 'data-repository': state.repository }, h('th', { scope: 'row' }, link), cells.status, cells.commit, cells.files, cells.indexed, cells.pending, cells.error);
    if (state.repository.toLowerCase() === this.selected) {
      tr.classList.add('selected');
      link.setAttribute('aria-current', 'true');
    }
    return { tr, link, cells };
  }

  private fillRow(row: Row, state: RepositoryState, seen: Seen, now: number): void {
    const { cells } = row;
    const isNew = seen.changedAt !== null && now - seen.changedAt < NEW_FOR_MS;
    row.tr.classList.toggle('changed', isNew);
    row.tr.dataset.commit = state.commit ?? '';
    row.tr.dataset.status = state.status;
    fill(cells.status, h('span', { class: `status status-${state.status}`, title: state.message }, state.status.replace('_', ' ')));
    fill(
      cells.commit,
      state.commit ? h('code', { class: 'sha', title: state.commit }, shortSha(state.commit)) : h('span', { class: 'muted' }, 'none'),
      isNew ? h('span', { class: 'badge badge-new', title: seen.previous ? `was ${seen.previous}` : 'first indexed' }, 'new') : null,
      state.ref ? h('span', { class: 'muted ref' }, ` ${state.default_branch ?? state.ref}`) : null,
      openPulls(state),
    );
    fill(cells.files, state.indexed ? formatCount(state.file_count) : '–');
    fill(cells.indexed, time(state.indexed_at, relativeTime(state.indexed_at, now)));
    fill(
      cells.pending,
      state.pending
        ? h('span', { class: 'badge badge-pending', title: state.pending_commit ?? '' }, `indexing ${shortSha(state.pending_commit)}`)
        : state.status === 'indexing' || state.backfill_queued
          ? h('span', { class: 'badge badge-pending' }, state.backfill_queued ? 'queued' : 'indexing')
          : h('span', { class: 'muted' }, 'none'),
    );
    if (state.last_error) fill(cells.error, h('span', { class: 'error-text' }, state.last_error));
    else if (state.status === 'not_indexed' || state.status === 'unknown') fill(cells.error, h('span', { class: 'muted' }, state.message));
    else fill(cells.error, h('span', { class: 'muted' }, '–'));
  }
}

/** "· 3 open pull requests", each named in the title (read one with ref pull/N). */
function openPulls(state: RepositoryState): HTMLElement | null {
  const open = state.pull_requests.length + state.pull_requests_omitted;
  if (open === 0) return null;
  const names = state.pull_requests.map((p) => `${p.ref} ${p.title}`).join('\n') + (state.pull_requests_omitted > 0 ? `\n… ${formatCount(state.pull_requests_omitted)} more` : '');
  return h('span', { class: 'muted pulls', title: names }, ` · ${formatCount(open)} open pull request${open === 1 ? '' : 's'}`);
}
