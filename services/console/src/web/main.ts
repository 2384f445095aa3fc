// The gitdex console: wires the token form, the repositories table (polled every 2 s), the
// file browser and the live announcements together. Talks to gitdex only through /v1.
import { ApiError, api, readToken, renewTokenWith, saveToken } from './api.js';
import { Browser } from './browser.js';
import { byId, fill, h } from './dom.js';
import { RepositoryTable } from './repositories.js';
import { parseRoute, routeRepository } from './route.js';
import { SearchBox } from './search.js';
import { finishSignIn, refreshSignIn, signedInLogin, signInOffered, signOut, startSignIn } from './sign-in.js';

const POLL_MS = 2000;

const live = byId('live');
let lastAnnouncement = '';
function announce(message: string): void {
  // The same text twice is not re-read by screen readers unless it changes.
  live.textContent = message === lastAnnouncement ? `${message}\u00a0` : message;
  lastAnnouncement = live.textContent;
}

const alertBox = byId('alert');
const repositoriesSection = byId('repositories');
const updated = byId('updated');
const tokenForm = byId<HTMLFormElement>('token-form');
const tokenInput = byId<HTMLInputElement>('token');
const tokenState = byId('token-state');
const forget = byId<HTMLButtonElement>('token-forget');

const table = new RepositoryTable(byId<HTMLTableSectionElement>('repo-rows'), byId('repo-summary'), announce);
const browser = new Browser(
  {
    section: byId('browser'),
    heading: byId('browser-heading'),
    meta: byId('browser-meta'),
    notice: byId('browser-notice'),
    breadcrumbs: byId('breadcrumbs'),
    view: byId('view'),
    pathForm: byId<HTMLFormElement>('path-form'),
    pathInput: byId<HTMLInputElement>('path'),
    pathList: byId<HTMLUListElement>('path-suggestions'),
    pathStatus: byId('path-status'),
  },
  { unauthorized: (error) => unauthorized(error), announce },
);

const search = new SearchBox(
  {
    form: byId<HTMLFormElement>('search-form'),
    query: byId<HTMLInputElement>('search-query'),
    regex: byId<HTMLInputElement>('search-regex'),
    scope: byId<HTMLInputElement>('search-scope'),
    path: byId<HTMLInputElement>('search-path'),
    results: byId('search-results'),
  },
  { unauthorized: (error) => unauthorized(error), announce },
);

let authorized = true;
let timer: ReturnType<typeof setTimeout> | undefined;
let polling = false;
let lastOk: number | null = null;
/** Longer after a 429 or 503 that says when to come back. */
let nextDelayMs = POLL_MS;

const signInBox = byId('sign-in');
const signedIn = byId('signed-in');
const signOutButton = byId<HTMLButtonElement>('sign-out');
const signInButton = byId<HTMLButtonElement>('sign-in-button');

function showTokenState(): void {
  const token = readToken();
  const login = signedInLogin();
  tokenState.textContent = login ? '' : token ? 'A token is set for this tab.' : 'No token set.';
  forget.disabled = !token;
  signedIn.textContent = login ? `Signed in as ${login}` : '';
  signOutButton.hidden = !login;
  signInButton.hidden = Boolean(login);
}

function showAlert(title: string, ...body: (Node | string)[]): void {
  fill(alertBox, h('strong', {}, title), ' ', ...body);
  alertBox.hidden = false;
}

function hideAlert(): void {
  alertBox.hidden = true;
  alertBox.replaceChildren();
}

/** 401: hide everything the token would have shown, say why, and stop polling until a token is given. */
function unauthorized(error: ApiError): void {
  const hadToken = Boolean(readToken());
  authorized = false;
  stopPolling();
  table.clear();
  browser.clear();
  search.clear();
  repositoriesSection.hidden = true;
  updated.textContent = '';
  showAlert(
    hadToken ? 'The reader token was refused (401).' : 'This gitdex needs a reader token (401).',
    h('span', { class: 'api-message' }, error.message),
    ' ',
    hadToken
      ? 'Check the token and enter it again above.'
      : signInBox.hidden
        ? 'Enter a token from GITDEX_READER_TOKENS in the “Reader token” field above.'
        : 'Sign in with GitHub above, or enter a token from GITDEX_READER_TOKENS.',
  );
}

function problem(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    unauthorized(error);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && error.status === 403) {
    showAlert('This page may not call gitdex (403).', message);
    return;
  }
  const wait = error instanceof ApiError && error.retryAfterSeconds !== null ? error.retryAfterSeconds : POLL_MS / 1000;
  nextDelayMs = Math.min(Math.max(wait * 1000, POLL_MS), 60_000);
  updated.textContent = `Last update failed: ${message}${lastOk ? ` (showing what was read at ${new Date(lastOk).toLocaleTimeString()})` : ''}. Retrying in ${Math.round(nextDelayMs / 1000)} s.`;
  updated.classList.add('error-text');
}

async function poll(): Promise<void> {
  if (polling) return;
  polling = true;
  nextDelayMs = POLL_MS;
  try {
    const answer = await api.repositories();
    const now = Date.now();
    lastOk = now;
    if (!authorized) {
      authorized = true;
      hideAlert();
    }
    repositoriesSection.hidden = false;
    table.update(answer.repositories, answer.omitted, now);
    table.select(browser.currentRepository());
    browser.onStates(answer.repositories);
    updated.classList.remove('error-text');
    fill(updated, h('span', { class: 'live-dot', 'aria-hidden': 'true' }), `Live: updated ${new Date(now).toLocaleTimeString()}, every ${POLL_MS / 1000} s.`);
  } catch (error) {
    problem(error);
  } finally {
    polling = false;
  }
  if (authorized) schedule();
}

function schedule(): void {
  clearTimeout(timer);
  if (document.hidden) {
    updated.textContent = 'Paused while this tab is hidden.';
    return;
  }
  timer = setTimeout(() => void poll(), nextDelayMs);
}

function stopPolling(): void {
  clearTimeout(timer);
  timer = undefined;
}

function startPolling(): void {
  stopPolling();
  void poll();
}

function showRoute(focus: boolean): void {
  const route = parseRoute(location.hash);
  table.select(routeRepository(route));
  if (!authorized) return;
  void browser.show(route, focus);
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (!token) {
    tokenInput.focus();
    return;
  }
  saveToken(token);
  tokenInput.value = '';
  showTokenState();
  hideAlert();
  authorized = true;
  announce('Token set for this tab.');
  startPolling();
  showRoute(false);
});

forget.addEventListener('click', () => {
  saveToken(null);
  showTokenState();
  // Nothing read with the token stays on screen.
  table.clear();
  browser.clear();
  search.clear();
  announce('Token forgotten.');
  authorized = true;
  startPolling();
  showRoute(false);
});

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && authorized) startPolling();
});

window.addEventListener('hashchange', () => showRoute(true));

// The skip link moves focus without touching the fragment (which holds the route).
document.querySelector('a.skip')?.addEventListener('click', (event) => {
  event.preventDefault();
  const main = byId('main');
  main.focus();
});

signInButton.addEventListener('click', () => void startSignIn());
signOutButton.addEventListener('click', () => {
  void signOut().then(() => forget.click());
});
renewTokenWith(refreshSignIn);

async function boot(): Promise<void> {
  const returned = await finishSignIn();
  signInBox.hidden = !(await signInOffered());
  if (returned) {
    if (returned.ok) hideAlert();
    else showAlert('Sign-in failed.', returned.message);
    announce(returned.message);
  }
  byId('boot').remove();
  showTokenState();
  startPolling();
  showRoute(false);
}

void boot();
