// The file view: name, size, language and a link to GitHub at the indexed commit, then the text
// with line numbers (a search hit marked and scrolled to) and a footer that reads on in pages.
// A folder asked for as a file is shown as the folder. Its outline (definitions, each a link to
// its line) comes beside it when the index has symbols for it. A Blame toggle puts beside the
// lines the commit that last changed each range (kept in the address as ?blame=1), and below the
// text the commits that changed the file fold open on demand.
import type { FileOutlineOutput, ReadFileOutput } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h } from './dom.js';
import { BlameColumn } from './blame.js';
import { fileCommits } from './commit-list.js';
import { formatBytes, formatCount, pathSegments, plural, safeUrl, shortSha, withoutFragment } from './format.js';
import { routeHash, treeHash, type Route } from './route.js';
import { outlinePanel } from './outline.js';
import { fileBadges } from './tree-table.js';
import type { ViewHost } from './view-host.js';

type FileRoute = Extract<Route, { view: 'file' }>;

export async function showFile(host: ViewHost, route: FileRoute, signal: AbortSignal, focus: boolean): Promise<void> {
  let file: ReadFileOutput;
  // Asked beside the file; the file shows without it when it fails (the reason is shown instead).
  const outline: Promise<FileOutlineOutput | Error> = api.outline(route.owner, route.repo, route.path, signal).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
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
  host.showsCommit(file.freshness.commit);
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
  const outlined = await outline;
  if (isAbort(outlined)) return;
  if (outlined instanceof Error) {
    if (!(outlined instanceof ApiError && outlined.code === 'INVALID_ARGUMENT')) body.push(h('p', { class: 'muted outline-problem' }, `No outline: ${outlined.message}`));
  } else if (outlined.freshness.commit === file.freshness.commit) {
    const panel = outlinePanel(route.owner, route.repo, outlined);
    if (panel) body.push(panel);
  }

  if (file.start_line > 0) {
    const tbody = h('tbody', {});
    const table = h(
      'table',
      { class: 'code', 'data-commit': file.freshness.commit, 'data-path': file.path },
      h('caption', { class: 'visually-hidden' }, `${file.path}, with line numbers`),
      h('thead', { class: 'visually-hidden' }, h('tr', {}, h('th', { scope: 'col', class: 'blame' }, 'Last changed by'), h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Text'))),
      tbody,
    );
    const blame = new BlameColumn(table, fileUrl);
    const region = h('div', { class: 'code-wrap', tabindex: 0, role: 'region', 'aria-label': `Contents of ${file.path}` }, table);
    const footer = h('div', { class: 'code-footer' });
    const appendLines = (part: ReadFileOutput) => {
      const lines = part.content.split('\n');
      const rows = lines.map((text, i) => {
        const n = part.start_line + i;
        const attrs = n === route.line ? { id: `L${n}`, class: 'hit', 'aria-current': 'true' } : { id: `L${n}` };
        return h('tr', attrs, blame.cell(n), h('td', { class: 'ln' }, String(n)), h('td', { class: 'line' }, h('code', {}, text === '' ? '\u200b' : text)));
      });
      tbody.append(...rows);
      renderFileFooter(host, footer, route, part, appendLines);
    };
    appendLines(file);
    const toggle = blameToggle(host, route, file, table, blame);
    head.querySelector('.meta')?.append(' ', toggle.button);
    body.push(toggle.status, region, footer);
    if (route.blame) toggle.set(true);
  } else if (!file.note) {
    body.push(h('p', { class: 'muted' }, 'This file is empty.'));
  }
  body.push(fileCommits(host, { owner: route.owner, repo: route.repo, path: file.path }));
  fill(host.view, body);
  if (focus) heading.focus();
  if (route.line !== undefined) document.getElementById(`L${route.line}`)?.scrollIntoView({ block: 'center' });
}

function renderFileFooter(host: ViewHost, footer: HTMLElement, route: FileRoute, part: ReadFileOutput, appendLines: (p: ReadFileOutput) => void): void {
  const parts: (Node | string)[] = [];
  if (part.next_start_line !== null) {
    const start = part.next_start_line;
    parts.push(`Lines 1–${formatCount(part.end_line)} of ${formatCount(part.total_lines)}. `);
    const more = h('button', { type: 'button', class: 'button' }, `Show more lines from ${formatCount(start)}`);
    more.addEventListener('click', () => {
      more.disabled = true;
      api
        .file(route.owner, route.repo, route.path, start, host.signal())
        .then((next) => {
          if (next.freshness.commit !== host.shownCommit()) {
            footer.append(
              h(
                'p',
                { class: 'error-text', role: 'alert' },
                `The file changed: commit ${shortSha(next.freshness.commit)} was indexed since. `,
                h('button', { type: 'button', class: 'button', onclick: () => host.refresh() }, 'Show it'),
              ),
            );
            return;
          }
          appendLines(next);
          document.getElementById(`L${next.start_line}`)?.querySelector('td.line')?.scrollIntoView({ block: 'nearest' });
          host.events.announce(`Lines ${next.start_line} to ${next.end_line} shown.`);
        })
        .catch((error: unknown) => {
          if (isAbort(error)) return;
          more.disabled = false;
          if (error instanceof ApiError && error.status === 401) host.events.unauthorized(error);
          footer.append(h('p', { class: 'error-text', role: 'alert' }, error instanceof Error ? error.message : String(error)));
        });
    });
    parts.push(more);
  } else if (part.total_lines > 0) {
    parts.push(`${plural(part.total_lines, 'line')}, end of file.`);
  }
  fill(footer, parts.length > 0 ? h('p', {}, parts) : null);
}

/** The Blame button: shows or hides the blame column, reading blame the first time, and keeps the choice in the address (without a new history entry). */
function blameToggle(host: ViewHost, route: FileRoute, file: ReadFileOutput, table: HTMLTableElement, blame: BlameColumn): { button: HTMLButtonElement; status: HTMLElement; set(on: boolean): void } {
  const button = h('button', { type: 'button', class: 'button', id: 'blame-toggle', 'aria-pressed': 'false' }, 'Blame');
  const status = h('div', { class: 'blame-status' });
  let reading = false;
  const set = (on: boolean) => {
    button.setAttribute('aria-pressed', String(on));
    table.classList.toggle('blamed', on && blame.loaded);
    const plain: FileRoute = { view: 'file', owner: route.owner, repo: route.repo, path: route.path, ...(route.line !== undefined ? { line: route.line } : {}) };
    history.replaceState(history.state, '', routeHash(on ? { ...plain, blame: true } : plain));
    if (!on || blame.loaded || reading) return;
    reading = true;
    fill(status, h('p', { class: 'muted', role: 'status' }, 'Reading the blame…'));
    api
      .blame(route.owner, route.repo, file.path, host.signal())
      .then((answer) => {
        reading = false;
        if (answer.freshness.commit !== file.freshness.commit) {
          button.setAttribute('aria-pressed', 'false');
          fill(
            status,
            h(
              'p',
              { class: 'error-text', role: 'alert' },
              `The file changed: commit ${shortSha(answer.freshness.commit)} was indexed since. `,
              h('button', { type: 'button', class: 'button', onclick: () => host.refresh() }, 'Show it'),
            ),
          );
          return;
        }
        blame.show(answer);
        status.replaceChildren();
        table.classList.toggle('blamed', button.getAttribute('aria-pressed') === 'true');
        host.events.announce(`Blame shown: ${plural(answer.ranges.length, 'range')}.`);
      })
      .catch((error: unknown) => {
        reading = false;
        if (isAbort(error)) return;
        button.setAttribute('aria-pressed', 'false');
        if (error instanceof ApiError && error.status === 401) {
          host.events.unauthorized(error);
          return;
        }
        const text = error instanceof ApiError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
        fill(status, h('p', { class: 'blame-problem error-text', role: 'alert', 'data-code': error instanceof ApiError ? error.code : 'ERROR' }, `No blame: ${text}`));
      });
  };
  button.addEventListener('click', () => set(button.getAttribute('aria-pressed') !== 'true'));
  return { button, status, set };
}
