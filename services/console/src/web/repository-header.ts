// The header of the repository open in the browser: the facts line (branch, commit, when indexed,
// counts, languages, a push being indexed, a failed index, the GitHub link) and the breadcrumbs
// from the repository down to the folder or file shown.
import type { RepositoryOverviewOutput, RepositoryState } from '@gitdex/contracts';
import { fill, h, time } from './dom.js';
import { formatBytes, formatCount, pathSegments, plural, relativeTime, safeUrl, shortSha } from './format.js';
import { fileHash, treeHash } from './route.js';
import type { RepoRoute } from './tree-table.js';

/** Fills `meta` from the overview (counts, languages, URL) and the latest poll's state (commit, pending push, failure). */
export function renderRepositoryMeta(meta: HTMLElement, o: RepositoryOverviewOutput | null, s: RepositoryState | null): void {
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
  fill(meta, parts);
}

/** Fills `breadcrumbs` with links from the repository's root to the route's folder or file (the last marked current). */
export function renderBreadcrumbs(breadcrumbs: HTMLElement, route: RepoRoute): void {
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
  fill(breadcrumbs, h('ol', {}, items));
}
