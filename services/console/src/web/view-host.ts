// What the browser's views (folder listing, file view, error page) may touch of the browser
// that shows them. The views are plain functions: the browser keeps the state (the navigation
// in progress, the commit shown) and hands them this small surface instead of itself.
import type { ApiError } from './api.js';

export interface BrowserEvents {
  unauthorized(error: ApiError): void;
  announce(message: string): void;
}

export interface ViewHost {
  /** The element the view fills. */
  readonly view: HTMLElement;
  readonly events: BrowserEvents;
  /** The signal of the navigation in progress when a "show more" button is pressed (not when it was drawn). */
  signal(): AbortSignal | undefined;
  /** The commit the view on screen shows, and setting it when a view draws another one. */
  shownCommit(): string | null;
  showsCommit(commit: string): void;
  /** Shows the current route again at the newest commit. */
  refresh(): void;
}
