import type { Router } from 'express';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SignInStore } from '@gitdex/ports';
import type { Authenticate } from '../http/auth';
import type { PermissionMirror } from '../people';
import { signInAuthenticate } from './authenticate';
import { gitHubOAuth } from './github-oauth';
import { SignInProvider, type SignInProviderOptions } from './provider';
import { createSignInRouter, resourceMetadataUrl } from './router';
import { aesGcmSealer } from './secrets';

export { SignInProvider, SIGN_IN_LIFETIMES, ACCESS_TOKEN_PREFIX, canonical } from './provider';
export { createSignInRouter, resourceMetadataUrl, SIGN_IN_SCOPES } from './router';
export { signInAuthenticate } from './authenticate';
export { gitHubOAuth, GitHubSignInError, type GitHubOAuth, type GitHubUserToken } from './github-oauth';
export { aesGcmSealer, digestOf, newSecret, type Sealer } from './secrets';
export { type SignInPeople } from './people';
export { type GrantRecord } from './records';

export interface SignInOptions {
  store: SignInStore;
  /** The permission mirror: resolves a person at sign-in, gives their Principal per request, tells of revocations. */
  people: Pick<PermissionMirror, 'resolveOnSignIn' | 'principalFor' | 'onRevoked'>;
  /** GitHub's web URL and the client id and secret of the GitHub App (or OAuth app) people authorize. */
  github: { webUrl: string; clientId: string; clientSecret: string };
  /** 32 bytes: GitHub tokens are sealed with it at rest. */
  encryptionKey: Uint8Array;
  /** gitdex's public URL (GITDEX_PUBLIC_URL): issuer, protected resource and callback base. */
  publicUrl: string;
  now?: () => Date;
  lifetimes?: SignInProviderOptions['lifetimes'];
}

export interface SignIn {
  provider: SignInProvider;
  /** /.well-known/*, /oauth/*: mount at the root of the app that serves /mcp and /v1. */
  router: Router;
  /** The 401 challenge's resource_metadata (ReaderHttpOptions.resourceMetadataUrl). */
  resourceMetadataUrl: string;
  /** The reader's authenticate hook: signed-in people, then `machines` (static tokens) for any other token. */
  authenticate(machines?: Authenticate): Authenticate;
}

/** Sign-in with GitHub, composed: gitdex's authorization server over the store, GitHub, and the permission mirror. */
export function createSignIn(options: SignInOptions): SignIn {
  const publicUrl = new URL(options.publicUrl);
  const provider = new SignInProvider({
    store: options.store,
    github: gitHubOAuth(options.github),
    people: options.people,
    sealer: aesGcmSealer(options.encryptionKey),
    resource: new URL('/', publicUrl),
    callbackUrl: new URL('/oauth/callback', publicUrl).href,
    ...(options.now ? { now: options.now } : {}),
    ...(options.lifetimes ? { lifetimes: options.lifetimes } : {}),
    builtInClients: [consoleClient(publicUrl)],
  });
  // A person who revoked gitdex on GitHub (or whose token GitHub refuses) is signed out everywhere.
  // A failure reaches the mirror's revoke, which rethrows it to whoever delivered the revocation.
  options.people.onRevoked(async (userId) => {
    await provider.endSessionsOf(userId, 'GitHub authorization revoked');
  });
  return {
    provider,
    router: createSignInRouter(provider, { publicUrl }),
    resourceMetadataUrl: resourceMetadataUrl(publicUrl),
    authenticate: (machines) => signInAuthenticate(provider, options.people, machines),
  };
}

/** The web console at / signs people in as a public client of its own gitdex (PKCE, redirected back to the page). */
export function consoleClient(publicUrl: URL): OAuthClientInformationFull {
  return {
    client_id: 'gitdex-console',
    client_name: 'gitdex console',
    redirect_uris: [new URL('/', publicUrl).href],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}
