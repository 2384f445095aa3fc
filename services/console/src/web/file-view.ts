// The file view: name, size, language and a link to GitHub at the indexed commit, then the text
// with line numbers (a search hit marked and scrolled to) and a footer that reads on in pages.
// A folder asked for as a file is shown as the folder. Its outline (definitions, each a link to
// its line) comes beside it when the index has symbols for it.
import type { FileOutlineOutput, ReadFileOutput } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h } from './dom.js';
import { formatBytes, formatCount, pathSegments, plural, safeUrl, shortSha, withoutFragment } from './format.js';
import { treeHash, type Route } from './route.js';
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
      renderFileFooter(host, footer, route, part, appendLines);
    };
    appendLines(file);
    body.push(region, footer);
  } else if (!file.note) {
    body.push(h('p', { class: 'muted' }, 'This file is empty.'));
  }
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
