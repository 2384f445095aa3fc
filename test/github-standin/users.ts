// GitHub users, teams and organisation members, what each person can read, and the OAuth state
// (codes, user tokens) the sign-in routes hand out. Webhooks for changes are built in user-events.ts.
import { createHash, randomBytes } from 'node:crypto';
import { ownerId } from './repo-json';

export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];
const RANK: Record<Permission, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export interface StandInUser {
  id: number;
  login: string;
  /** Direct (collaborator) access by lower-cased full name. */
  repositories: Map<string, Permission>;
}

export interface StandInTeam {
  id: number;
  org: string;
  slug: string;
  members: Set<string>;
  repositories: Map<string, Permission>;
}

interface Code {
  login: string;
  clientId: string;
  redirectUri: string | null;
  challenge: string | null;
  scope: string;
  expiresAt: number;
}

interface UserToken {
  login: string;
  clientId: string;
  scope: string;
  /** Epoch ms; null for a token that does not expire (OAuth apps' default). */
  expiresAt: number | null;
}

/** Codes live 10 minutes on GitHub. */
const CODE_MS = 10 * 60 * 1000;

const key = (s: string): string => s.toLowerCase();

export class UserStore {
  readonly users = new Map<string, StandInUser>();
  readonly teams = new Map<string, StandInTeam>();
  readonly orgMembers = new Map<string, Set<string>>();
  readonly oauthApps = new Map<string, string>();
  private readonly codes = new Map<string, Code>();
  private readonly tokens = new Map<string, UserToken>();
  private readonly refreshTokens = new Map<string, { login: string; clientId: string; scope: string; expiresAt: number }>();
  /** When set, user tokens expire after this many seconds and come with a refresh token (GitHub Apps' expiring user tokens). */
  tokenSeconds: number | null = null;

  constructor(readonly now: () => number = Date.now) {}

  user(login: string): StandInUser | undefined {
    return this.users.get(key(login));
  }

  ensureUser(login: string): StandInUser {
    let user = this.user(login);
    if (!user) {
      user = { id: ownerId(login), login, repositories: new Map() };
      this.users.set(key(login), user);
    }
    return user;
  }

  team(org: string, slug: string): StandInTeam | undefined {
    return this.teams.get(key(`${org}/${slug}`));
  }

  isOrgMember(org: string, login: string): boolean {
    return this.orgMembers.get(key(org))?.has(key(login)) ?? false;
  }

  /** The highest permission a person has on a repository (owner, collaborator or team), or null. */
  permission(login: string, repo: { owner: string; name: string }): Permission | null {
    const full = key(`${repo.owner}/${repo.name}`);
    if (key(repo.owner) === key(login)) return 'admin';
    let best: Permission | null = this.user(login)?.repositories.get(full) ?? null;
    for (const team of this.teams.values()) {
      if (!team.members.has(key(login))) continue;
      const p = team.repositories.get(full);
      if (p && (!best || RANK[p] > RANK[best])) best = p;
    }
    return best;
  }

  // --- OAuth ---

  issueCode(code: Omit<Code, 'expiresAt'>): string {
    const value = randomBytes(10).toString('hex');
    this.codes.set(value, { ...code, expiresAt: this.now() + CODE_MS });
    return value;
  }

  /** Takes a code once: a second exchange of the same code fails, as on GitHub. */
  takeCode(value: string): Code | null {
    const code = this.codes.get(value);
    this.codes.delete(value);
    return code && code.expiresAt > this.now() ? code : null;
  }

  issueToken(
    login: string,
    clientId: string,
    scope: string,
  ): { access_token: string; token_type: 'bearer'; scope: string; expires_in?: number; refresh_token?: string; refresh_token_expires_in?: number } {
    const access = `ghu_${randomBytes(18).toString('hex')}`;
    const expiresAt = this.tokenSeconds === null ? null : this.now() + this.tokenSeconds * 1000;
    this.tokens.set(access, { login, clientId, scope, expiresAt });
    if (this.tokenSeconds === null) return { access_token: access, token_type: 'bearer', scope };
    const refresh = `ghr_${randomBytes(30).toString('hex')}`;
    // GitHub's refresh tokens live six months.
    const refreshSeconds = 15_897_600;
    this.refreshTokens.set(refresh, { login, clientId, scope, expiresAt: this.now() + refreshSeconds * 1000 });
    return { access_token: access, token_type: 'bearer', scope, expires_in: this.tokenSeconds, refresh_token: refresh, refresh_token_expires_in: refreshSeconds };
  }

  /** A refresh token is good once: it is replaced with the new one. */
  takeRefreshToken(value: string, clientId: string): { login: string; scope: string } | null {
    const entry = this.refreshTokens.get(value);
    this.refreshTokens.delete(value);
    return entry && entry.clientId === clientId && entry.expiresAt > this.now() ? entry : null;
  }

  /** The person a user token belongs to; null for an unknown, expired or revoked token. */
  tokenOwner(token: string): StandInUser | null {
    const entry = this.tokens.get(token);
    if (!entry || (entry.expiresAt !== null && entry.expiresAt <= this.now())) return null;
    return this.user(entry.login) ?? null;
  }

  revokeToken(token: string, clientId: string): boolean {
    const entry = this.tokens.get(token);
    if (!entry || entry.clientId !== clientId) return false;
    this.tokens.delete(token);
    return true;
  }

  /** Ends every token and refresh token of the person (the authorization was revoked). */
  revokeAll(login: string): number {
    let ended = 0;
    for (const map of [this.tokens, this.refreshTokens] as Map<string, { login: string }>[]) {
      for (const [value, entry] of map) {
        if (key(entry.login) !== key(login)) continue;
        map.delete(value);
        ended += 1;
      }
    }
    return ended;
  }

  /** With no app registered every client id is taken (a quick test needs none); otherwise only registered ones. */
  knownClient(clientId: string): boolean {
    return this.oauthApps.size === 0 || this.oauthApps.has(clientId);
  }

  /** The client id and secret a token exchange presents. */
  clientAccepted(clientId: string, secret: string | undefined): boolean {
    if (this.oauthApps.size === 0) return clientId !== '';
    return secret !== undefined && this.oauthApps.get(clientId) === secret;
  }
}

/** RFC 7636 S256: base64url(sha256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
