import { ConfigError, loadEnv } from '@gitdex/contracts';

/** Issue 17, item 10: a short webhook secret is refused at start, naming the variable but never the value. */
describe('GITHUB_WEBHOOK_SECRETS length', () => {
  it('refuses a secret shorter than 16 characters, also as the second of a rotation', () => {
    for (const GITHUB_WEBHOOK_SECRETS of ['short', 'a-long-enough-secret,tiny']) {
      let error: unknown;
      try {
        loadEnv({ GITHUB_WEBHOOK_SECRETS });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toMatch(/GITHUB_WEBHOOK_SECRETS: secret \d has \d+ characters; use at least 16/);
      expect(String(error)).not.toMatch(/short|tiny/);
    }
  });

  it('accepts 16 characters or more', () => {
    expect(loadEnv({ GITHUB_WEBHOOK_SECRETS: '0123456789abcdef' }).GITHUB_WEBHOOK_SECRETS).toEqual(['0123456789abcdef']);
  });
});
