// The path box: a combobox (ARIA 1.2 pattern, list autocomplete) that asks
// /v1/repositories/:owner/:repo/suggest as you type (debounced, stale answers dropped) and
// opens the chosen path. Keys: ArrowDown/ArrowUp move through the suggestions, Enter opens
// the highlighted one (or the typed path), Escape closes the list, then clears the box.
import type { Suggestion } from '@gitdex/contracts';
import { ApiError, api, isAbort } from './api.js';
import { h } from './dom.js';
import { debounce, normalisePath } from './format.js';

export interface PathBoxTarget {
  owner: string;
  repo: string;
}

export interface PathBoxEvents {
  /** Open a path: `folder` when it was typed with a trailing slash. */
  open(path: string, kind: 'file' | 'folder'): void;
  /** The API refused the token. */
  unauthorized(error: ApiError): void;
}

const DEBOUNCE_MS = 150;

export class PathBox {
  private target: PathBoxTarget | null = null;
  private suggestions: Suggestion[] = [];
  private active = -1;
  private controller: AbortController | null = null;
  private readonly request = debounce((query: string) => void this.fetch(query), DEBOUNCE_MS);

  constructor(
    private readonly form: HTMLFormElement,
    private readonly input: HTMLInputElement,
    private readonly list: HTMLUListElement,
    private readonly status: HTMLElement,
    private readonly events: PathBoxEvents,
  ) {
    input.addEventListener('input', () => this.onInput());
    input.addEventListener('keydown', (event) => this.onKey(event));
    input.addEventListener('blur', () => this.close());
    input.addEventListener('focus', () => {
      if (this.suggestions.length > 0 && this.input.value.trim() !== '') this.open();
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    // mousedown would blur the input (and close the list) before the click lands.
    list.addEventListener('mousedown', (event) => event.preventDefault());
    list.addEventListener('click', (event) => {
      const option = (event.target as Element).closest<HTMLElement>('[role="option"]');
      if (option?.dataset.index !== undefined) this.choose(Number(option.dataset.index));
    });
  }

  /** The repository the box suggests in; a new one clears the box. */
  setTarget(target: PathBoxTarget | null, currentPath: string): void {
    const changed = this.target?.owner !== target?.owner || this.target?.repo !== target?.repo;
    this.target = target;
    this.input.disabled = target === null;
    if (changed) this.reset();
    if (document.activeElement !== this.input) this.input.value = currentPath;
  }

  reset(): void {
    this.request.cancel();
    this.controller?.abort();
    this.suggestions = [];
    this.render();
    this.status.textContent = '';
  }

  private onInput(): void {
    const query = this.input.value.trim();
    if (query === '' || !this.target) {
      this.reset();
      return;
    }
    this.request(query);
  }

  private async fetch(query: string): Promise<void> {
    const target = this.target;
    if (!target) return;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    try {
      const answer = await api.suggest(target.owner, target.repo, query, controller.signal);
      if (controller !== this.controller || this.input.value.trim() !== query) return;
      this.suggestions = answer.suggestions;
      this.active = -1;
      this.render();
      this.status.textContent =
        answer.suggestions.length === 0
          ? `No path matches "${query}".`
          : `${answer.suggestions.length} ${answer.suggestions.length === 1 ? 'suggestion' : 'suggestions'}: use the up and down arrows to pick one, Enter to open it.`;
    } catch (error) {
      if (isAbort(error) || controller !== this.controller) return;
      if (error instanceof ApiError && error.status === 401) this.events.unauthorized(error);
      this.suggestions = [];
      this.render();
      this.status.textContent = error instanceof Error ? `No suggestions: ${error.message}` : 'No suggestions.';
    }
  }

  private onKey(event: KeyboardEvent): void {
    const count = this.suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (count === 0) return;
        event.preventDefault();
        if (this.list.hidden) this.open();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = this.active === -1 ? (step === 1 ? 0 : count - 1) : (this.active + step + count) % count;
        this.render();
        return;
      }
      case 'Enter':
        if (!this.list.hidden && this.active >= 0) {
          event.preventDefault();
          this.choose(this.active);
        }
        return;
      case 'Escape':
        event.preventDefault();
        if (!this.list.hidden) this.close();
        else {
          this.input.value = '';
          this.reset();
        }
        return;
      case 'Tab':
        this.close();
        return;
      default:
    }
  }

  private choose(index: number): void {
    const suggestion = this.suggestions[index];
    if (!suggestion) return;
    this.input.value = suggestion.path;
    this.close();
    this.events.open(suggestion.path, 'file');
  }

  private submit(): void {
    const typed = this.input.value.trim();
    this.request.cancel();
    this.controller?.abort();
    this.suggestions = [];
    this.close();
    if (!this.target) return;
    const path = normalisePath(typed);
    this.events.open(path, path === '' || typed.endsWith('/') ? 'folder' : 'file');
  }

  private open(): void {
    if (this.suggestions.length === 0) return;
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
  }

  private close(): void {
    this.list.hidden = true;
    this.active = -1;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    for (const option of this.list.querySelectorAll('[aria-selected="true"]')) option.setAttribute('aria-selected', 'false');
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.suggestions.map((s, i) =>
        h(
          'li',
          { id: `path-option-${i}`, role: 'option', 'aria-selected': i === this.active ? 'true' : 'false', 'data-index': i, 'data-path': s.path, class: i === this.active ? 'active' : null },
          h('span', { class: 'option-path' }, s.path),
          h('span', { class: 'option-reason' }, s.reason),
        ),
      ),
    );
    if (this.suggestions.length === 0 || this.input.value.trim() === '') {
      this.close();
      return;
    }
    if (document.activeElement === this.input) this.open();
    if (this.active >= 0) {
      this.input.setAttribute('aria-activedescendant', `path-option-${this.active}`);
      document.getElementById(`path-option-${this.active}`)?.scrollIntoView({ block: 'nearest' });
    } else this.input.removeAttribute('aria-activedescendant');
  }
}
