// The permission mirror's rules with in-memory parts: a GitHub that answers from a table (or is
// down, or refuses a token) and the in-memory store; the engines and the stand-in run the same
// mirror in test/integration/permission-mirror.test.ts.
import type { RepositoryDocument } from '@gitdex/contracts';
import { GitHubTokenRefused, MemoryPermissionStore, PermissionMirror, personAccess, personPrincipal, type GitHubUserAccess } from '../../src/people';

const ALICE = 7;
const SDK = 100;
const SITE = 200;

function github(readable: Map<string, number[]>) {
  const state = { down: false, refused: new Set<string>() };
  const access: GitHubUserAccess = {
    whoAmI: (token) => Promise.resolve({ userId: ALICE, login: token.replace('tok-', '') }),
    readableRepositoryIds: (token) => {
      if (state.down) return Promise.reject(new Error('GitHub is down (HTTP 502)'));
      if (state.refused.has(token)) return Promise.reject(new GitHubTokenRefused());
      return Promise.resolve(readable.get(token) ?? []);
    },
  };
  return { access, state };
}

function setup(tokens: Map<number, string> = new Map([[ALICE, 'tok-alice']])) {
  const readable = new Map([['tok-alice', [SDK, SITE]]]);
  const gh = github(readable);
  const store = new MemoryPermissionStore();
  let now = new Date('2026-01-01T00:00:00.000Z');
  const errors: unknown[] = [];
  const mirror = new PermissionMirror({
    store,
    github: gh.access,
    tokens: (userId) => Promise.resolve(tokens.get(userId) ?? null),
    refreshSeconds: 60,
    now: () => now,
    onError: (_userId, error) => void errors.push(error),
  });
  return { mirror, store, readable, gh, errors, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const doc = (repositoryId: number, isPrivate: boolean, fullName = 'acme/sdk'): RepositoryDocument => ({
  repositoryId,
  fullName,
  fullNameLower: fullName,
  defaultBranch: 'main',
  private: isPrivate,
  archived: false,
  htmlUrl: `https://github.com/${fullName}`,
  installationId: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  backfillRequestedAt: null,
});

describe('permission mirror', () => {
  it('a removal webhook while GitHub is down leaves the person public repositories only, until a refresh succeeds', async () => {
    const { mirror, gh, errors } = setup();
    await mirror.resolveOnSignIn('tok-alice');
    gh.state.down = true;
    await mirror.onWebhook({ kind: 'person', source: 'organization', removed: true, userId: ALICE, login: 'alice', organization: 'acme' });
    expect(await mirror.readable(ALICE)).toEqual(new Set());
    expect(errors).toHaveLength(1);
    gh.state.down = false;
    // Marked due at once: the next sweep restores what GitHub says, without waiting a period.
    expect(await mirror.refreshDue()).toBe(1);
    expect(await mirror.readable(ALICE)).toEqual(new Set([SDK, SITE]));
  });

  it('an addition webhook while GitHub is down keeps what the person had', async () => {
    const { mirror, gh } = setup();
    await mirror.resolveOnSignIn('tok-alice');
    gh.state.down = true;
    await mirror.onWebhook({ kind: 'team', action: 'added_to_repository', organization: 'acme', repositoryId: 300 });
    expect(await mirror.readable(ALICE)).toEqual(new Set([SDK, SITE]));
  });

  it('refreshes only people a period old; a failing person does not stop the sweep', async () => {
    const { mirror, readable, advance } = setup();
    await mirror.resolveOnSignIn('tok-alice');
    readable.set('tok-alice', [SITE]);
    expect(await mirror.refreshDue()).toBe(0);
    advance(60_001);
    expect(await mirror.refreshDue()).toBe(1);
    expect(await mirror.readable(ALICE)).toEqual(new Set([SITE]));
  });

  it('a deleted repository leaves every set; a person without a held token is forgotten without ending anything', async () => {
    const tokens = new Map([[ALICE, 'tok-alice']]);
    const { mirror } = setup(tokens);
    const told: number[] = [];
    mirror.onRevoked((id) => void told.push(id));
    await mirror.resolveOnSignIn('tok-alice');
    await mirror.onWebhook({ kind: 'repository', action: 'deleted', repositoryId: SDK, fullName: 'acme/sdk', private: true });
    expect(await mirror.readable(ALICE)).toEqual(new Set([SITE]));
    tokens.delete(ALICE);
    expect(await mirror.refresh(ALICE)).toBe(false);
    expect(await mirror.readable(ALICE)).toBeNull();
    expect(told).toEqual([]);
  });

  it('every revocation listener is called even when one fails, and the failure reaches the caller', async () => {
    const { mirror } = setup();
    const told: string[] = [];
    mirror.onRevoked(() => Promise.reject(new Error('token store down')));
    mirror.onRevoked(() => void told.push('second'));
    await mirror.resolveOnSignIn('tok-alice');
    await expect(mirror.onWebhook({ kind: 'revoked', userId: ALICE, login: 'alice' })).rejects.toThrow('token store down');
    expect(told).toEqual(['second']);
    expect(await mirror.principalFor(ALICE)).toBeNull();
  });

  it('refuses a refresh period that is not a positive number of seconds', () => {
    expect(() => new PermissionMirror({ store: new MemoryPermissionStore(), github: github(new Map()).access, tokens: () => Promise.resolve(null), refreshSeconds: 0 })).toThrow(/refreshSeconds/);
  });
});

describe('personAccess', () => {
  const alice = personPrincipal(ALICE, 'alice', new Set([SDK]));
  it('public for everyone, private for a person whose set holds it and for a token whose patterns name it', () => {
    expect(personAccess(doc(SITE, false, 'acme/site'), null)).toBe(true);
    expect(personAccess(doc(SDK, true), alice)).toBe(true);
    expect(personAccess(doc(SITE, true, 'acme/site'), alice)).toBe(false);
    expect(personAccess(doc(SDK, true), null)).toBe(false);
    expect(personAccess(doc(SDK, true), { id: 'ci', repositories: ['acme/*'] })).toBe(true);
    // A person's set is the only rule for them: patterns on a person principal are not read.
    expect(personAccess(doc(SITE, true, 'acme/site'), { ...alice, repositories: ['*'] })).toBe(false);
  });
});
