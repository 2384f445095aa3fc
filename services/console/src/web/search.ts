// The code search box: search_code through GET /v1/search, results grouped by file, each
// matching line a link into the file view at that line; beside it find_symbol (GET /v1/symbols)
// lists the definitions of a name first. Text goes in as text nodes only.
import type { FindSymbolOutput, SearchCodeOutput, SearchFile } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { fill, h } from './dom.js';
import { plural, shortSha } from './format.js';
import { fileHash } from './route.js';

export interface SearchElements {
  form: HTMLFormElement;
  query: HTMLInputElement;
  regex: HTMLInputElement;
  scope: HTMLInputElement;
  path: HTMLInputElement;
  results: HTMLElement;
}

export interface SearchEvents {
  unauthorized(error: ApiError): void;
  announce(message: string): void;
}

/** The line with its matches marked (<mark>), from the answer's ranges. */
function marked(text: string, ranges: [number, number][]): (Node | string)[] {
  const out: (Node | string)[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || start > text.length) continue;
    out.push(text.slice(at, start), h('mark', {}, text.slice(start, end)));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

function fileBlock(file: SearchFile): HTMLElement {
  const [owner = '', repo = ''] = file.repository.split('/');
  const rows = file.matches.map((match) =>
    h(
      'li',
      {},
      h('a', { href: fileHash(owner, repo, file.path, match.line), class: 'hit-line' }, h('span', { class: 'ln' }, String(match.line)), ' ', h('code', {}, ...marked(match.text, match.ranges))),
    ),
  );
  const more = file.match_count > file.matches.length ? h('p', { class: 'muted' }, `${plural(file.match_count - file.matches.length, 'more matching line')} in this file.`) : null;
  return h(
    'article',
    { class: 'search-file' },
    h('h3', {}, h('a', { href: fileHash(owner, repo, file.path) }, `${file.repository} · ${file.path}`), ' ', h('code', { class: 'sha' }, shortSha(file.commit))),
    h('ol', { class: 'hits' }, rows),
    more,
  );
}

/** A query find_symbol takes: a name, Container.name, or a * pattern (no spaces, no regex). */
const SYMBOL_QUERY = /^[\p{L}_$*][\p{L}\p{N}_$*]*(?:(?:\.|::|#)[\p{L}_$*][\p{L}\p{N}_$*]*)*$/u;

function definitionsBlock(answer: FindSymbolOutput): HTMLElement | null {
  if (answer.symbols.length === 0) return null;
  const rows = answer.symbols.map((s) => {
    const [owner = '', repo = ''] = s.repository.split('/');
    const qualified = s.container ? `${s.container}.${s.name}` : s.name;
    return h(
      'li',
      {},
      h(
        'a',
        { href: fileHash(owner, repo, s.path, s.line), class: 'hit-line', title: s.signature },
        h('span', { class: 'kind' }, s.kind),
        ' ',
        h('code', {}, qualified),
        ` ${s.repository} · ${s.path}:${s.line}`,
      ),
    );
  });
  const more = answer.total > answer.symbols.length ? h('p', { class: 'muted' }, `${plural(answer.total - answer.symbols.length, 'more definition')}.`) : null;
  return h('article', { class: 'search-file symbol-results' }, h('h3', {}, `Definitions of ${answer.name}`), h('ol', { class: 'hits' }, rows), more);
}

export class SearchBox {
  private controller: AbortController | null = null;

  constructor(
    private readonly el: SearchElements,
    private readonly events: SearchEvents,
  ) {
    el.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
  }

  clear(): void {
    this.controller?.abort();
    this.el.results.replaceChildren();
  }

  private async run(cursor?: string, shown: HTMLElement[] = []): Promise<void> {
    const query = this.el.query.value;
    if (query.trim() === '') {
      this.el.query.focus();
      return;
    }
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    fill(this.el.results, ...shown, h('p', { class: 'muted', role: 'status' }, 'Searching…'));
    const wantsSymbols = !cursor && !this.el.regex.checked && SYMBOL_QUERY.test(query.trim());
    const symbols: Promise<FindSymbolOutput | null> = wantsSymbols
      ? api
          .symbols(
            query.trim(),
            { ...(this.el.scope.value.trim() ? { repositories: this.el.scope.value.trim() } : {}), ...(this.el.path.value.trim() ? { path: this.el.path.value.trim() } : {}) },
            controller.signal,
          )
          // Code search still answers when symbols cannot: the text results stand alone.
          .catch(() => null)
      : Promise.resolve(null);
    let answer: SearchCodeOutput;
    try {
      answer = await api.search(
        query,
        {
          regex: this.el.regex.checked,
          ...(this.el.scope.value.trim() ? { repositories: this.el.scope.value.trim() } : {}),
          ...(this.el.path.value.trim() ? { path: this.el.path.value.trim() } : {}),
          ...(cursor ? { cursor } : {}),
        },
        controller.signal,
      );
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof ApiError && error.status === 401) {
        this.events.unauthorized(error);
        return;
      }
      fill(this.el.results, h('div', { class: 'problem', role: 'alert', 'data-code': error instanceof ApiError ? error.code : 'ERROR' }, error instanceof Error ? error.message : String(error)));
      return;
    }
    const definitions = await symbols;
    if (controller.signal.aborted) return;
    const symbolBlock = definitions ? definitionsBlock(definitions) : null;
    const blocks = [...shown, ...(symbolBlock ? [symbolBlock] : []), ...answer.files.map(fileBlock)];
    const summary = `${plural(answer.total_files, 'file')}, ${plural(answer.total_matches, 'matching line')}${answer.counts_exact ? '' : ' at least'} in ${plural(answer.repositories.length, 'repository', 'repositories')}${answer.complete ? '' : ' (stopped at the deadline: narrow the search for every match)'}.`;
    const next = answer.next_cursor;
    const more = next ? h('button', { type: 'button', class: 'button', onclick: () => void this.run(next, blocks) }, 'More results') : null;
    fill(this.el.results, h('p', { class: 'muted', role: 'status' }, summary), ...blocks, more);
    this.events.announce(summary);
  }
}
