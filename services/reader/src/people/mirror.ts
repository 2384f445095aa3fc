import type { PermissionEvent } from '@gitdex/contracts';
import type { PermissionStore } from '@gitdex/ports';
import { isTokenRefused, type GitHubTokenSource, type GitHubUserAccess } from './github-user';
import { personPrincipal, type PersonPrincipal } from './principal';

/** Told when a person's authorization ended (revoked on GitHub, or GitHub refuses their token): end their tokens. */
export type RevocationListener = (userId: number) => void | Promise<void>;

export interface PermissionMirrorOptions {
  store: PermissionStore;
  github: GitHubUserAccess;
  /** The person's GitHub user token, from the sign-in side's encrypted store. */
  tokens: GitHubTokenSource;
  /** A person's set is resolved again from GitHub after this long (GITDEX_PERMISSION_REFRESH_SECONDS; default 15 min). */
  refreshSeconds?: number;
  now?: () => Date;
  /** People refreshed at most per event or sweep; the rest are left due for the next sweep. */
  maxRefreshesPerPass?: number;
  /** Told of each person whose refresh failed (the failure is not thrown from a sweep, so one person cannot stall the others). */
  onError?: (userId: number, error: unknown) => void;
}

/** What sign-in hands back: who the person is on GitHub and what they may read now. */
export interface SignedInPerson {
  userId: number;
  login: string;
  readable: ReadonlySet<number>;
}

const DEFAULT_REFRESH_SECONDS = 15 * 60;

/**
 * Which repositories each signed-in person may read, mirrored from GitHub: resolved at
 * sign-in with the person's own token, kept current by permission webhooks (a removal is a
 * store write, no GitHub call) and by a periodic refresh for whatever a lost webhook missed.
 * Framework-free: the store, GitHub and the clock are injected.
 */
export class PermissionMirror {
  private readonly store: PermissionStore;
  private readonly github: GitHubUserAccess;
  private readonly tokens: GitHubTokenSource;
  private readonly now: () => Date;
  readonly refreshSeconds: number;
  private readonly maxPerPass: number;
  private readonly onError: (userId: number, error: unknown) => void;
  private readonly listeners = new Set<RevocationListener>();

  constructor(options: PermissionMirrorOptions) {
    const refreshSeconds = options.refreshSeconds ?? DEFAULT_REFRESH_SECONDS;
    if (!Number.isFinite(refreshSeconds) || refreshSeconds <= 0) throw new TypeError(`PermissionMirror: refreshSeconds must be a positive number of seconds, got ${refreshSeconds}`);
    this.store = options.store;
    this.github = options.github;
    this.tokens = options.tokens;
    this.now = options.now ?? (() => new Date());
    this.refreshSeconds = refreshSeconds;
    this.maxPerPass = options.maxRefreshesPerPass ?? 500;
    this.onError = options.onError ?? (() => undefined);
  }

  /** At sign-in: who the token belongs to and everything they can read, stored for every replica. */
  async resolveOnSignIn(githubUserToken: string): Promise<SignedInPerson> {
    const who = await this.github.whoAmI(githubUserToken);
    const ids = await this.github.readableRepositoryIds(githubUserToken);
    await this.store.putPerson({ userId: who.userId, login: who.login, repositoryIds: unique(ids), refreshedAt: this.now().toISOString() });
    return { userId: who.userId, login: who.login, readable: new Set(ids) };
  }

  /** The person's readable set as the store holds it now; null for a person the mirror does not know (never signed in, or revoked). */
  async readable(userId: number): Promise<ReadonlySet<number> | null> {
    const person = await this.store.getPerson(userId);
    return person ? new Set(person.repositoryIds) : null;
  }

  /** The Principal for a signed-in person's request; null ends the request as unauthenticated. */
  async principalFor(userId: number): Promise<PersonPrincipal | null> {
    const person = await this.store.getPerson(userId);
    return person ? personPrincipal(person.userId, person.login, new Set(person.repositoryIds)) : null;
  }

  /** Public repositories for everyone; a private one only when the person's set holds it. */
  async canRead(userId: number, repository: { repositoryId: number; private: boolean }): Promise<boolean> {
    if (!repository.private) return true;
    return (await this.readable(userId))?.has(repository.repositoryId) ?? false;
  }

  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies one permission webhook. */
  async onWebhook(event: PermissionEvent): Promise<void> {
    switch (event.kind) {
      case 'collaborator':
        if (event.action === 'removed') await this.store.withdraw(event.userId, event.repositoryId);
        else await this.store.grant(event.userId, event.repositoryId);
        return;
      case 'person':
        if (await this.store.getPerson(event.userId)) await this.refreshOrClose(event.userId, event.removed);
        return;
      case 'team': {
        // A team's members are not in the payload: a repository the team lost is re-resolved for
        // the people who hold it; any other team change may add or remove access for anyone.
        const people =
          event.repositoryId !== null && event.action === 'removed_from_repository'
            ? await this.store.holders(event.repositoryId, this.maxPerPass)
            : (await this.store.listPeople(this.maxPerPass)).map((p) => p.userId);
        const removal = event.action === 'removed_from_repository' || event.action === 'deleted';
        for (const userId of people) await this.refreshOrClose(userId, removal);
        return;
      }
      case 'repository':
        // Who may read a repository follows its `private` flag on the index's repository document
        // (the indexer applies privatized/publicized); the mirror's sets already list private
        // access. A deleted repository's grants are dropped so the sets do not grow forever.
        if (event.action === 'deleted') for (const userId of await this.store.holders(event.repositoryId, this.maxPerPass)) await this.store.withdraw(userId, event.repositoryId);
        return;
      case 'revoked':
        await this.revoke(event.userId);
        return;
    }
  }

  /**
   * Resolves the person's set from GitHub again. False when the mirror holds no token for them
   * (they are forgotten). A token GitHub refuses ends the authorization: the person is
   * revoked and the listeners told.
   */
  async refresh(userId: number): Promise<boolean> {
    const token = await this.tokens(userId);
    if (token === null) {
      await this.store.removePerson(userId);
      return false;
    }
    let ids: number[];
    try {
      ids = await this.github.readableRepositoryIds(token);
    } catch (error) {
      if (isTokenRefused(error)) {
        await this.revoke(userId);
        return false;
      }
      throw error;
    }
    const known = await this.store.getPerson(userId);
    if (!known) return false;
    await this.store.putPerson({ ...known, repositoryIds: unique(ids), refreshedAt: this.now().toISOString() });
    return true;
  }

  /** One sweep of the periodic refresh: everyone last resolved a refresh period ago or more. Returns how many were refreshed. */
  async refreshDue(): Promise<number> {
    const before = new Date(this.now().getTime() - this.refreshSeconds * 1000).toISOString();
    let done = 0;
    for (const userId of await this.store.dueForRefresh(before, this.maxPerPass)) {
      try {
        if (await this.refresh(userId)) done += 1;
      } catch (error) {
        this.onError(userId, error);
      }
    }
    return done;
  }

  /** Forgets the person and tells every listener (all are called even when one fails; the first failure is rethrown). */
  async revoke(userId: number): Promise<void> {
    await this.store.removePerson(userId);
    const failures: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        await listener(userId);
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  /** The operator's view: who is signed in and when their permissions were last resolved. */
  people(limit = 1000): Promise<{ userId: number; login: string; repositoryIds: number[]; refreshedAt: string }[]> {
    return this.store.listPeople(limit);
  }

  /**
   * Refresh after a webhook. When GitHub cannot be asked and the webhook said access was
   * removed, the person keeps only public repositories until a refresh succeeds: failing
   * closed, since which repositories went is not in the payload.
   */
  private async refreshOrClose(userId: number, removal: boolean): Promise<void> {
    try {
      await this.refresh(userId);
    } catch (error) {
      this.onError(userId, error);
      const known = await this.store.getPerson(userId);
      if (known) await this.store.putPerson({ ...known, repositoryIds: removal ? [] : known.repositoryIds, refreshedAt: new Date(0).toISOString() });
    }
  }
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
