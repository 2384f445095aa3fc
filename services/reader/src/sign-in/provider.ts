import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SignInStore } from '@gitdex/ports';
import { GitHubSignInError, type GitHubOAuth, type GitHubUserToken } from './github-oauth';
import type { SignInPeople } from './people';
import type { AccessRecord, CodeRecord, GrantRecord, PendingRecord, PersonRecord, RefreshRecord, SpentRecord } from './records';
import { digestOf, newSecret, type Sealer } from './secrets';

/** An expiring GitHub token is renewed this long before it ends, so a refresh pass never meets it expired. */
const RENEW_AHEAD_MS = 5 * 60_000;

/** How long each thing lives. Access tokens are short so that a revoked grant or a withdrawn permission ends within minutes even for a client that never asks again. */
export const SIGN_IN_LIFETIMES = {
  accessMs: 15 * 60_000,
  /** A grant (and its refresh tokens) from sign-in on; the person signs in again after it. */
  grantMs: 30 * 24 * 3600_000,
  /** RFC 6749 recommends at most 10 minutes; a client trades its code within seconds. */
  codeMs: 60_000,
  /** A person reading GitHub's sign-in page. */
  pendingMs: 10 * 60_000,
  /**
   * A registered client that never signs anyone in is forgotten after a day (registration is
   * open to anyone, so its records must not pile up); each sign-in keeps it as long as its grant.
   */
  unusedClientMs: 24 * 3600_000,
};

export const ACCESS_TOKEN_PREFIX = 'gdx_at_';
const REFRESH_TOKEN_PREFIX = 'gdx_rt_';
const CODE_PREFIX = 'gdx_ac_';

export interface SignInProviderOptions {
  store: SignInStore;
  github: GitHubOAuth;
  people: SignInPeople;
  sealer: Sealer;
  /** The protected resource (RFC 8707): gitdex's public URL, the audience of every token it issues. */
  resource: URL;
  /** Where GitHub sends the person back: {public URL}/oauth/callback. */
  callbackUrl: string;
  now?: () => Date;
  lifetimes?: Partial<typeof SIGN_IN_LIFETIMES>;
  /** Clients gitdex knows without registration (its own console), by client id. */
  builtInClients?: readonly OAuthClientInformationFull[];
}

/** Where the callback sends the person's browser: back to their client, with a code or an error. */
export type CallbackOutcome = { redirect: string } | { page: { status: number; message: string } };

/**
 * gitdex as the authorization server in front of GitHub, as the MCP SDK's OAuthServerProvider:
 * the SDK's handlers check the request shapes, PKCE (S256) and client authentication; this
 * class keeps codes, grants and tokens in the sign-in store, sends the person to GitHub and
 * issues gitdex's own tokens, bound to gitdex as their resource.
 */
export class SignInProvider implements OAuthServerProvider {
  private readonly now: () => Date;
  private readonly life: typeof SIGN_IN_LIFETIMES;
  private readonly resource: string;

  constructor(private readonly options: SignInProviderOptions) {
    this.now = options.now ?? (() => new Date());
    this.life = { ...SIGN_IN_LIFETIMES, ...options.lifetimes };
    this.resource = canonical(options.resource);
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    const { store } = this.options;
    return {
      getClient: async (clientId) =>
        this.options.builtInClients?.find((client) => client.client_id === clientId) ?? (await store.get<OAuthClientInformationFull>('client', clientId, this.now())) ?? undefined,
      registerClient: async (client) => {
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(this.now().getTime() / 1000) } as OAuthClientInformationFull;
        await store.put('client', full.client_id, full, this.after(this.life.unusedClientMs));
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.checkResource(params.resource);
    const pending: PendingRecord = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      ...(params.state !== undefined ? { state: params.state } : {}),
      resource: this.resource,
      scopes: params.scopes ?? [],
    };
    const state = newSecret('');
    await this.options.store.put('pending', digestOf(state), pending, this.after(this.life.pendingMs));
    res.redirect(302, this.options.github.authorizeUrl(state, this.options.callbackUrl));
  }

  /** GitHub sent the person back: trade its code for their GitHub token, learn who they are, and send them to their client with a gitdex code. */
  async completeSignIn(query: { code?: unknown; state?: unknown; error?: unknown }): Promise<CallbackOutcome> {
    if (typeof query.state !== 'string') return { page: { status: 400, message: 'This sign-in link is incomplete. Start the sign-in again from your client.' } };
    const pending = await this.options.store.take<PendingRecord>('pending', digestOf(query.state), this.now());
    if (!pending) return { page: { status: 400, message: 'This sign-in has expired or was already completed. Start the sign-in again from your client.' } };
    const back = (params: Record<string, string>) => ({ redirect: withQuery(pending.redirectUri, { ...params, ...(pending.state !== undefined ? { state: pending.state } : {}) }) });
    if (typeof query.code !== 'string') return back({ error: 'access_denied', error_description: 'The sign-in with GitHub was not approved.' });
    const token = await this.options.github.exchange(query.code, this.options.callbackUrl);
    const person = await this.options.people.resolveOnSignIn(token.accessToken);
    const client = await this.clientsStore.getClient(pending.clientId);
    const at = this.now().toISOString();
    await this.options.store.put('person', String(person.userId), this.personRecord(person, token), this.after(this.life.grantMs));
    const grant: GrantRecord = {
      grantId: randomUUID(),
      userId: person.userId,
      login: person.login,
      clientId: pending.clientId,
      ...(client?.client_name ? { clientName: client.client_name } : {}),
      resource: pending.resource,
      scopes: pending.scopes,
      signedInAt: at,
      usedAt: at,
      revokedAt: null,
    };
    await this.options.store.put('grant', grant.grantId, grant, this.after(this.life.grantMs));
    if (client && !this.options.builtInClients?.some((builtIn) => builtIn.client_id === client.client_id))
      await this.options.store.put('client', client.client_id, client, this.after(this.life.grantMs));
    const code = newSecret(CODE_PREFIX);
    const record: CodeRecord = { grantId: grant.grantId, clientId: pending.clientId, redirectUri: pending.redirectUri, codeChallenge: pending.codeChallenge, resource: pending.resource };
    await this.options.store.put('code', digestOf(code), record, this.after(this.life.codeMs));
    return back({ code });
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    const key = digestOf(authorizationCode);
    const record = await this.options.store.get<CodeRecord>('code', key, this.now());
    // The SDK asks for the challenge before the exchange: a replayed code is caught here first.
    if (!record) await this.revokeIfSpent(key, 'authorization code replayed', 'authorization code');
    if (!record || record.clientId !== client.client_id) throw new InvalidGrantError('The authorization code is unknown, expired or already used; sign in again.');
    return record.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string, _verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const record = await this.turnIn<CodeRecord>('code', authorizationCode, 'authorization code replayed');
    if (record.clientId !== client.client_id) throw new InvalidGrantError('The authorization code was issued to another client.');
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) throw new InvalidGrantError('redirect_uri differs from the one the authorization was asked with.');
    this.checkResource(resource);
    const grant = await this.liveGrant(record.grantId);
    return this.issue(grant);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const record = await this.turnIn<RefreshRecord>('refresh', refreshToken, 'refresh token reused');
    if (record.clientId !== client.client_id) throw new InvalidGrantError('The refresh token was issued to another client.');
    this.checkResource(resource);
    const grant = await this.liveGrant(record.grantId);
    const used = { ...grant, usedAt: this.now().toISOString() };
    await this.options.store.put('grant', grant.grantId, used, this.grantExpiry(grant));
    return this.issue(used);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const record = token.startsWith(ACCESS_TOKEN_PREFIX) ? await this.options.store.get<AccessRecord>('access', digestOf(token), this.now()) : null;
    if (!record) throw new InvalidTokenError('The access token is unknown or expired; refresh it or sign in again.');
    // Bound to its resource (RFC 8707): a token issued by a gitdex at another address is refused here.
    if (record.resource !== this.resource) throw new InvalidTokenError('The access token was issued for another resource.');
    await this.liveGrant(record.grantId, InvalidTokenError);
    return {
      token,
      clientId: record.clientId,
      scopes: record.scopes,
      expiresAt: Math.floor(record.expiresAt / 1000),
      resource: new URL(record.resource),
      extra: { userId: record.userId, login: record.login, grantId: record.grantId },
    };
  }

  /** Revoking either token of a grant ends the grant: the person signed out of that client. */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const key = digestOf(request.token);
    const now = this.now();
    const found =
      (await this.options.store.get<AccessRecord>('access', key, now)) ??
      (await this.options.store.get<RefreshRecord>('refresh', key, now)) ??
      (await this.options.store.get<SpentRecord>('spent', key, now));
    // RFC 7009: an unknown token, or one of another client, is answered the same way, and nothing changes.
    if (!found) return;
    const grant = await this.options.store.get<GrantRecord>('grant', found.grantId, now);
    if (grant && grant.clientId === client.client_id) await this.revokeGrant(grant, 'signed out');
  }

  /** Ends every grant of a person (GitHub authorization revoked, or an operator's decision). */
  async endSessionsOf(userId: number, because: string): Promise<number> {
    await this.options.store.delete('person', String(userId));
    let ended = 0;
    for (const { value } of await this.options.store.list<GrantRecord>('grant', this.now(), 10_000)) {
      if (value.userId === userId && value.revokedAt === null) {
        await this.revokeGrant(value, because);
        ended += 1;
      }
    }
    return ended;
  }

  /** Who is signed in (live grants), for the operator. */
  async signedIn(limit = 1000): Promise<GrantRecord[]> {
    const grants = await this.options.store.list<GrantRecord>('grant', this.now(), limit);
    return grants.filter(({ value }) => value.revokedAt === null).map(({ value }) => value);
  }

  /** The person's newest GitHub token (the mirror's GitHubTokenSource, for its refresh); null when none is held. */
  /**
   * The person's GitHub token for the permission mirror. An expiring one is renewed with its
   * refresh token when it is about to end or when `renew` asks (GitHub refused it); a refused
   * renewal answers null on `renew`, which the mirror takes as the authorization's end.
   */
  readonly gitHubTokenOf = async (userId: number, options: { renew?: boolean } = {}): Promise<string | null> => {
    const now = this.now();
    const person = await this.options.store.get<PersonRecord>('person', String(userId), now);
    if (!person) return null;
    const current = this.options.sealer.open(person.github);
    const ending = person.githubExpiresAt !== undefined && Date.parse(person.githubExpiresAt) - RENEW_AHEAD_MS <= now.getTime();
    if (!person.githubRefresh || !(options.renew || ending)) return current;
    let token: GitHubUserToken;
    try {
      token = await this.options.github.renew(this.options.sealer.open(person.githubRefresh));
    } catch (error) {
      if (error instanceof GitHubSignInError) return options.renew ? null : current;
      throw error;
    }
    await this.options.store.put('person', String(userId), this.personRecord(person, token), this.after(this.life.grantMs));
    return token.accessToken;
  };

  private personRecord(person: { userId: number; login: string }, token: GitHubUserToken): PersonRecord {
    const now = this.now();
    return {
      userId: person.userId,
      login: person.login,
      github: this.options.sealer.seal(token.accessToken),
      ...(token.refreshToken ? { githubRefresh: this.options.sealer.seal(token.refreshToken) } : {}),
      ...(token.refreshToken && token.expiresInSeconds !== undefined ? { githubExpiresAt: new Date(now.getTime() + token.expiresInSeconds * 1000).toISOString() } : {}),
      updatedAt: now.toISOString(),
    };
  }

  private async revokeGrant(grant: GrantRecord, because: string): Promise<void> {
    await this.options.store.put('grant', grant.grantId, { ...grant, revokedAt: this.now().toISOString(), revokedBecause: because }, this.grantExpiry(grant));
  }

  /**
   * Turns in a code or refresh token once. It is marked spent before it is taken, so a second
   * presentation (a replay, or a stolen copy racing its owner) always finds the mark and
   * revokes the whole grant (RFC 9700: refresh token rotation with reuse detection).
   */
  private async turnIn<T extends { grantId: string }>(kind: 'code' | 'refresh', secret: string, reuse: string): Promise<T> {
    const key = digestOf(secret);
    const now = this.now();
    const record = await this.options.store.get<T>(kind, key, now);
    if (record) await this.options.store.put('spent', key, { grantId: record.grantId } satisfies SpentRecord, this.after(this.life.grantMs));
    const taken = record ? await this.options.store.take<T>(kind, key, now) : null;
    if (taken) return taken;
    const what = kind === 'code' ? 'authorization code' : 'refresh token';
    await this.revokeIfSpent(key, reuse, what);
    throw new InvalidGrantError(`The ${what} is unknown or expired; sign in again.`);
  }

  /** A code or refresh token presented again after it was turned in: its whole grant ends, and the caller is told so. */
  private async revokeIfSpent(key: string, because: string, what: string): Promise<void> {
    const now = this.now();
    const spent = await this.options.store.get<SpentRecord>('spent', key, now);
    if (!spent) return;
    const grant = await this.options.store.get<GrantRecord>('grant', spent.grantId, now);
    if (grant && grant.revokedAt === null) await this.revokeGrant(grant, because);
    throw new InvalidGrantError(`This ${what} was already used, so every token of its sign-in is revoked; sign in again.`);
  }

  private async liveGrant(grantId: string, error: typeof InvalidGrantError | typeof InvalidTokenError = InvalidGrantError): Promise<GrantRecord> {
    const grant = await this.options.store.get<GrantRecord>('grant', grantId, this.now());
    if (!grant || grant.revokedAt !== null) throw new error('This sign-in has ended (signed out, revoked or expired); sign in again.');
    return grant;
  }

  private async issue(grant: GrantRecord): Promise<OAuthTokens> {
    const now = this.now();
    const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
    const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
    const expiresAt = now.getTime() + this.life.accessMs;
    const access: AccessRecord = { grantId: grant.grantId, userId: grant.userId, login: grant.login, clientId: grant.clientId, resource: grant.resource, scopes: grant.scopes, expiresAt };
    await this.options.store.put('access', digestOf(accessToken), access, new Date(expiresAt));
    await this.options.store.put('refresh', digestOf(refreshToken), { grantId: grant.grantId, clientId: grant.clientId } satisfies RefreshRecord, this.grantExpiry(grant));
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.floor(this.life.accessMs / 1000),
      refresh_token: refreshToken,
      ...(grant.scopes.length > 0 ? { scope: grant.scopes.join(' ') } : {}),
    };
  }

  private checkResource(resource: URL | undefined): void {
    if (resource !== undefined && canonical(resource) !== this.resource) throw new InvalidTargetError(`This authorization server issues tokens for ${this.resource} only.`);
  }

  private grantExpiry(grant: GrantRecord): Date {
    return new Date(Date.parse(grant.signedInAt) + this.life.grantMs);
  }

  private after(ms: number): Date {
    return new Date(this.now().getTime() + ms);
  }
}

/** A resource URL as compared: no fragment, no trailing slash (the SDK's expectedResource rule). */
export function canonical(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href.replace(/\/$/, '');
}

function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}
