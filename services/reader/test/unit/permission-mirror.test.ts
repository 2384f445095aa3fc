// The permission mirror's rules with in-memory parts: a GitHub that answers from a table (or is
// down, or refuses a token) and the in-memory store; the engines and the stand-in run the same
// mirror in test/integration/permission-mirror.test.ts.
import type { RepositoryDocument } from '@gitdex/contracts';
import { GitHubTokenRefused, MemoryPermissionStore, PermissionMirror, personAccess, personPrincipal, startPermissionRefresh, type GitHubUserAccess } from '../../src/people';

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

  it('refreshes only people a period old', async () => {
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

  it('a refused token the sign-in side can renew is not a revocation; one it cannot renew is', async () => {
    const renewed = new Map<number, string>();
    const { store, gh, readable } = setup();
    const tokens = { renew: 0 };
    const told: number[] = [];
    const withRenewal = new PermissionMirror({
      store,
      github: gh.access,
      tokens: (userId, options) => {
        if (options?.renew) tokens.renew += 1;
        return Promise.resolve(options?.renew ? (renewed.get(userId) ?? 'tok-alice') : 'tok-alice');
      },
    });
    withRenewal.onRevoked((id) => void told.push(id));
    await withRenewal.resolveOnSignIn('tok-alice');
    gh.state.refused.add('tok-alice');
    readable.set('tok-alice-2', [SITE]);
    renewed.set(ALICE, 'tok-alice-2');
    expect(await withRenewal.refresh(ALICE)).toBe(true);
    expect(await withRenewal.readable(ALICE)).toEqual(new Set([SITE]));
    renewed.delete(ALICE);
    expect(await withRenewal.refresh(ALICE)).toBe(false);
    expect(told).toEqual([ALICE]);
    expect(tokens.renew).toBe(2);
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

  it('a team webhook refreshes people until its budget is spent; after a removal the rest keep public repositories only until their refresh in the background', async () => {
    const store = new MemoryPermissionStore();
    const people = [1, 2, 3, 4, 5, 6];
    for (const userId of people) await store.putPerson({ userId, login: `p${userId}`, repositoryIds: [SDK, SITE], refreshedAt: '2026-01-01T00:00:00.000Z' });
    let ms = 0;
    let calls = 0;
    let openGate = () => undefined as void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const mirror = new PermissionMirror({
      store,
      github: {
        whoAmI: () => Promise.reject(new Error('not asked')),
        // Every answer costs 3 s of a 5 s budget: the four first (four at a time) spend it; later ones wait for the gate.
        readableRepositoryIds: async () => {
          calls += 1;
          ms += 3_000;
          if (calls > 4) await gate;
          return [SITE];
        },
      },
      tokens: (userId) => Promise.resolve(`tok-${userId}`),
      webhookBudgetMs: 5_000,
      elapsed: () => ms,
    });
    await mirror.onWebhook({ kind: 'team', action: 'removed_from_repository', organization: 'acme', repositoryId: SDK });
    const sets = async () => (await store.listPeople(10)).map((p) => p.repositoryIds);
    expect(await sets()).toEqual([[SITE], [SITE], [SITE], [SITE], [], []]);
    openGate();
    await mirror.settled();
    expect(await sets()).toEqual([[SITE], [SITE], [SITE], [SITE], [SITE], [SITE]]);
  });

  it('the refresh timer sweeps every tenth of the period (at least 5 s) until stopped', async () => {
    jest.useFakeTimers();
    try {
      const { mirror } = setup();
      const sweeps = jest.spyOn(mirror, 'refreshDue');
      const stop = startPermissionRefresh(mirror);
      // A 60 s period: a sweep every 6 s.
      await jest.advanceTimersByTimeAsync(6_000);
      expect(sweeps).toHaveBeenCalledTimes(1);
      stop();
      await jest.advanceTimersByTimeAsync(20_000);
      expect(sweeps).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
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
