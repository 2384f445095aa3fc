// Sign in with GitHub from the console: the page is a public OAuth client of its own gitdex
// ("gitdex-console", PKCE S256, redirected back to this page), so the person's gitdex tokens
// live in this tab only (sessionStorage) and GitHub's token never reaches the browser.
import { saveToken, readToken } from './api.js';

const CLIENT_ID = 'gitdex-console';
const KEYS = { verifier: 'gitdex.console.pkce', state: 'gitdex.console.state', refresh: 'gitdex.console.refresh', login: 'gitdex.console.login' };

function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage refused: sign-in then lasts until reload.
  }
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const randomText = (): string => base64url(crypto.getRandomValues(new Uint8Array(32)));
/** This page, as registered for the console client: the callback comes back here. */
const redirectUri = (): string => `${location.origin}${location.pathname}`;
const endpoint = (path: string): URL => new URL(path, document.baseURI);

/** Whether this gitdex offers sign-in (its authorization server metadata answers). */
export async function signInOffered(): Promise<boolean> {
  const response = await fetch(endpoint('.well-known/oauth-authorization-server'), { cache: 'no-store' }).catch(() => null);
  return response?.ok === true;
}

/** Who is signed in in this tab, when someone is. */
export const signedInLogin = (): string | null => (readToken() ? stored(KEYS.login) : null);

/** Off to gitdex's /oauth/authorize, which sends the person on to GitHub. */
export async function startSignIn(): Promise<void> {
  const verifier = randomText();
  const state = randomText();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  store(KEYS.verifier, verifier);
  store(KEYS.state, state);
  const url = endpoint('oauth/authorize');
  const params = { response_type: 'code', client_id: CLIENT_ID, redirect_uri: redirectUri(), code_challenge: challenge, code_challenge_method: 'S256', state, scope: 'read' };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  location.assign(url.href);
}

async function token(params: Record<string, string>): Promise<boolean> {
  const response = await fetch(endpoint('oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...params }),
  }).catch(() => null);
  const body = (await response?.json().catch(() => null)) as { access_token?: string; refresh_token?: string } | null;
  if (!response?.ok || !body?.access_token) return false;
  saveToken(body.access_token);
  store(KEYS.refresh, body.refresh_token ?? null);
  return true;
}

/**
 * Back from sign-in (?code=…&state=…, or ?error=…): trades the code for this tab's tokens and
 * learns who signed in. The query is removed from the address bar either way. Null when this
 * page load was not a sign-in's return; otherwise what to tell the person.
 */
export async function finishSignIn(): Promise<{ ok: boolean; message: string } | null> {
  const query = new URLSearchParams(location.search);
  if (!query.has('code') && !query.has('error')) return null;
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  const expected = stored(KEYS.state);
  const verifier = stored(KEYS.verifier);
  store(KEYS.state, null);
  store(KEYS.verifier, null);
  if (query.has('error')) return { ok: false, message: query.get('error_description') ?? 'Sign-in was not completed.' };
  if (!expected || query.get('state') !== expected || !verifier) return { ok: false, message: 'This sign-in did not start in this tab; sign in again.' };
  const ok = await token({ grant_type: 'authorization_code', code: query.get('code') ?? '', code_verifier: verifier, redirect_uri: redirectUri() });
  if (!ok) return { ok: false, message: 'gitdex did not accept the sign-in; sign in again.' };
  const me = await fetch(endpoint('oauth/me'), { headers: { authorization: `Bearer ${readToken() ?? ''}` }, cache: 'no-store' }).catch(() => null);
  const who = (await me?.json().catch(() => null)) as { login?: string } | null;
  store(KEYS.login, who?.login ?? null);
  return { ok: true, message: `Signed in as ${who?.login ?? 'a GitHub user'}.` };
}

/** A new access token from the refresh token (rotated: the old one is spent); false when there is none or it was refused. */
export async function refreshSignIn(): Promise<boolean> {
  const refresh = stored(KEYS.refresh);
  if (!refresh) return false;
  store(KEYS.refresh, null);
  return token({ grant_type: 'refresh_token', refresh_token: refresh });
}

/** Ends this tab's sign-in at gitdex (revoking it ends the grant) and forgets its tokens. */
export async function signOut(): Promise<void> {
  const tokenToRevoke = stored(KEYS.refresh) ?? readToken();
  if (tokenToRevoke)
    await fetch(endpoint('oauth/revoke'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: CLIENT_ID, token: tokenToRevoke }),
    }).catch(() => null);
  store(KEYS.refresh, null);
  store(KEYS.login, null);
  saveToken(null);
}
