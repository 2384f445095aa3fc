// Open registration must not let client records pile up: a client nobody signs in with is
// forgotten after a day; one a person signed in with lives as long as that sign-in.
import type { Response } from 'express';
import { SqliteSignInStore } from '@gitdex/sqlite';
import { MemoryPermissionStore, PermissionMirror } from '../../src/people';
import { aesGcmSealer, SignInProvider } from '../../src/sign-in';

describe('registered clients', () => {
  let now = Date.parse('2026-06-01T00:00:00Z');
  const store = new SqliteSignInStore({ file: ':memory:' });
  afterAll(() => store.close());
  let state = '';
  const provider = new SignInProvider({
    store,
    github: {
      authorizeUrl: (s) => {
        state = s;
        return 'https://github.invalid/login/oauth/authorize';
      },
      exchange: () => Promise.resolve({ accessToken: 'ghu_token' }),
      renew: () => Promise.resolve({ accessToken: 'ghu_token' }),
    },
    people: new PermissionMirror({
      store: new MemoryPermissionStore(),
      github: { whoAmI: () => Promise.resolve({ userId: 7, login: 'alice' }), readableRepositoryIds: () => Promise.resolve([]) },
      tokens: () => Promise.resolve(null),
    }),
    sealer: aesGcmSealer(new Uint8Array(32).fill(9)),
    resource: new URL('https://gitdex.example.com/'),
    callbackUrl: 'https://gitdex.example.com/oauth/callback',
    now: () => new Date(now),
  });
  const register = () => provider.clientsStore.registerClient!({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
  const day = 24 * 3600_000;

  test('a client nobody signed in with is gone after a day; one used for a sign-in stays', async () => {
    const idle = await register();
    const used = await register();
    await provider.authorize(used, { codeChallenge: 'c', redirectUri: 'http://127.0.0.1:9/cb' }, { redirect: () => undefined } as unknown as Response);
    expect(await provider.completeSignIn({ code: 'from-github', state })).toHaveProperty('redirect');
    now += day + 1;
    expect(await provider.clientsStore.getClient(idle.client_id)).toBeUndefined();
    expect((await provider.clientsStore.getClient(used.client_id))?.client_id).toBe(used.client_id);
  });
});
