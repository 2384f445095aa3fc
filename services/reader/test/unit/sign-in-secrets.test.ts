// GitHub tokens at rest: sealed with AES-256-GCM, opened only with the same key and only when
// not altered; and the configuration sign-in needs, refused with the setting to fix.
import { ConfigError, loadEnv } from '@gitdex/contracts';
import { aesGcmSealer, digestOf, newSecret } from '../../src/sign-in';

describe('sealed GitHub tokens', () => {
  const key = new Uint8Array(32).fill(1);
  const sealer = aesGcmSealer(key);

  test('open gives back what was sealed; the same text seals differently each time; nothing of it shows', () => {
    const sealed = sealer.seal('ghu_person-token-123');
    expect(sealer.open(sealed)).toBe('ghu_person-token-123');
    expect(sealer.seal('ghu_person-token-123')).not.toBe(sealed);
    expect(sealed).not.toContain('person-token');
  });

  test('an altered text, or another key, is refused', () => {
    const sealed = sealer.seal('ghu_person-token-123');
    const [version, nonce, body, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => sealer.open([version, nonce, flipped.toString('base64url'), tag].join('.'))).toThrow();
    expect(() => aesGcmSealer(new Uint8Array(32).fill(2)).open(sealed)).toThrow();
    expect(() => aesGcmSealer(new Uint8Array(16))).toThrow(/32/);
  });

  test('secrets carry their prefix and 256 random bits; stored by a digest that is not the secret', () => {
    const secret = newSecret('gdx_at_');
    expect(secret).toMatch(/^gdx_at_[A-Za-z0-9_-]{43}$/);
    expect(newSecret('gdx_at_')).not.toBe(secret);
    expect(digestOf(secret)).not.toContain(secret.slice(7));
  });
});

describe('sign-in configuration', () => {
  const base = { GITDEX_GITHUB_OAUTH_CLIENT_ID: 'Iv23li-client' };
  const problems = (env: Record<string, string>) => {
    try {
      loadEnv(env);
      return [];
    } catch (error) {
      return (error as ConfigError).problems.map((p) => p.variable);
    }
  };

  test('a client id alone names the three settings it also needs', () => {
    expect(problems(base).sort()).toEqual(['GITDEX_GITHUB_OAUTH_CLIENT_SECRET', 'GITDEX_PUBLIC_URL', 'GITDEX_TOKEN_ENCRYPTION_KEY']);
  });

  test('the key must be 32 bytes; with sign-in, GITDEX_REQUIRE_AUTH needs no static token', () => {
    const full = { ...base, GITDEX_GITHUB_OAUTH_CLIENT_SECRET: 'secret', GITDEX_PUBLIC_URL: 'https://gitdex.example.com', GITDEX_TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32), GITDEX_REQUIRE_AUTH: 'true' };
    expect(problems(full)).toEqual([]);
    expect(problems({ ...full, GITDEX_TOKEN_ENCRYPTION_KEY: 'ab'.repeat(16) })).toEqual(['GITDEX_TOKEN_ENCRYPTION_KEY']);
    expect(problems({ GITDEX_REQUIRE_AUTH: 'true' })).toEqual(['GITDEX_REQUIRE_AUTH']);
  });
});
