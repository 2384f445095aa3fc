// Commits as list_commits gives them (GET /v1/repositories/:owner/:repo/commits): newest first,
// each with its short sha linking to the commit on GitHub, its summary line, its author and when,
// and how many files it changed; "Show more commits" pages on with the API's cursor. The
// repository page shows the default branch's recent commits, the file view those that changed
// the file. An answer that is not a list (history not held yet, no history store) is shown as the
// API words it, in place of the list: the rest of the view stands.
import type { CommitOutput, ListCommitsOutput } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h, time } from './dom.js';
import { firstLine, formatCount, plural, relativeTime, safeUrl, shortSha } from './format.js';
import type { ViewHost } from './view-host.js';

/** Commits a page of the console asks for: few, since most readers look at the newest. */
const PAGE = 10;

export interface CommitsOf {
  owner: string;
  repo: string;
  /** Only the commits that changed this file (absent: every commit of the default branch). */
  path?: string;
}

function commitItem(commit: CommitOutput, now: number): HTMLLIElement {
  const url = safeUrl(commit.url);
  const sha = h('code', { class: 'sha', title: commit.sha }, shortSha(commit.sha));
  const summary = firstLine(commit.message);
  return h(
    'li',
    { 'data-sha': commit.sha },
    url ? h('a', { href: url, rel: 'noreferrer', class: 'commit-sha' }, sha) : sha,
    ' ',
    h('span', { class: 'commit-summary', title: commit.message }, summary === '' ? '(no message)' : summary),
    h(
      'span',
      { class: 'muted commit-meta' },
      ` ${commit.author.name} · `,
      time(commit.author.date, relativeTime(commit.author.date, now)),
      ` · ${plural(commit.files_changed, 'file')}${commit.files_complete === false ? '+' : ''}`,
    ),
  );
}

/** The error of a commits request, as the API words it ("NOT_INDEXED: …"), or the 401 handed to the page. */
function problemText(host: ViewHost, error: unknown): HTMLElement | null {
  if (error instanceof ApiError && error.status === 401) {
    host.events.unauthorized(error);
    return null;
  }
  const code = error instanceof ApiError ? error.code : 'ERROR';
  return h('p', { class: 'commits-problem', role: 'alert', 'data-code': code }, error instanceof ApiError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));
}

/** Fills `box` with the first page of commits and a button that appends the next ones. */
export async function loadCommits(host: ViewHost, box: HTMLElement, of: CommitsOf, signal: AbortSignal | undefined): Promise<void> {
  fill(box, h('p', { class: 'muted', role: 'status' }, 'Reading the commits…'));
  let first: ListCommitsOutput;
  try {
    first = await api.commits(of.owner, of.repo, { ...(of.path !== undefined ? { path: of.path } : {}), limit: PAGE }, signal);
  } catch (error) {
    if (isAbort(error)) return;
    fill(box, problemText(host, error));
    return;
  }
  const list = h('ol', { class: 'commit-list', 'data-ref': first.ref });
  const footer = h('div', { class: 'commits-footer' });
  let shown = 0;
  const appendPage = (page: ListCommitsOutput) => {
    const now = Date.now();
    list.append(...page.commits.map((c) => commitItem(c, now)));
    shown += page.commits.length;
    const parts: (Node | string)[] = [];
    if (shown === 0) parts.push(of.path !== undefined ? 'No commit of the history held changed this file.' : 'No commits held yet.');
    else if (!page.next_cursor)
      parts.push(`${plural(shown, 'commit')}${page.reached_oldest_held ? `, back to the oldest of the ${formatCount(page.history_held)} the index holds (git may know older ones).` : '.'}`);
    if (page.next_cursor) {
      const cursor = page.next_cursor;
      const more = h('button', { type: 'button', class: 'button' }, 'Show more commits');
      more.addEventListener('click', () => {
        more.disabled = true;
        api
          .commits(of.owner, of.repo, { ...(of.path !== undefined ? { path: of.path } : {}), cursor, limit: PAGE }, host.signal())
          .then((next) => {
            appendPage(next);
            host.events.announce(`${plural(next.commits.length, 'more commit')} shown.`);
          })
          .catch((error: unknown) => {
            if (isAbort(error)) return;
            more.disabled = false;
            const text = problemText(host, error);
            if (text) footer.append(text);
          });
      });
      parts.push(more);
    }
    fill(footer, h('p', {}, parts));
  };
  appendPage(first);
  fill(box, list, footer);
}

/** The repository page's recent commits of the default branch, read as soon as it is drawn. */
export function recentCommits(host: ViewHost, of: CommitsOf, signal: AbortSignal): HTMLElement {
  const box = h('div', {});
  const section = h('section', { class: 'commits recent-commits', 'aria-labelledby': 'recent-commits-heading' }, h('h3', { id: 'recent-commits-heading' }, 'Recent commits'), box);
  void loadCommits(host, box, of, signal);
  return section;
}

/** The file's commits, folded: read the first time it is opened (most visits never open it). */
export function fileCommits(host: ViewHost, of: CommitsOf & { path: string }): HTMLElement {
  const box = h('div', {});
  const details = h('details', { class: 'commits file-commits' }, h('summary', {}, 'Commits that changed this file'), box);
  let asked = false;
  details.addEventListener('toggle', () => {
    if (!details.open || asked) return;
    asked = true;
    void loadCommits(host, box, of, host.signal());
  });
  return details;
}
