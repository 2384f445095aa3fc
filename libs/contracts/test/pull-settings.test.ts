import { EnvSchema } from '../src/config';

describe('pull request settings', () => {
  const parse = (env: Record<string, string>) => EnvSchema.safeParse(env);

  it('index open pull requests and keep closed ones 24 hours by default', () => {
    const parsed = parse({});
    expect(parsed.success && { pulls: parsed.data.GITDEX_INDEXED_PULLS, retention: parsed.data.GITDEX_CLOSED_PULL_RETENTION }).toEqual({ pulls: 'open', retention: 86400 });
  });

  it('reads the retention as seconds or a number with a unit', () => {
    const retention = (value: string) => {
      const parsed = parse({ GITDEX_CLOSED_PULL_RETENTION: value });
      return parsed.success ? parsed.data.GITDEX_CLOSED_PULL_RETENTION : parsed.error.issues[0]?.message;
    };
    expect([retention('3600'), retention('90m'), retention('2h'), retention('1d'), retention('0')]).toEqual([3600, 5400, 7200, 86400, 0]);
    expect(retention('soon')).toContain('a duration: seconds, or a number with s, m, h or d');
    expect(retention('-5m')).toContain('a duration');
  });

  it('refuses an unknown GITDEX_INDEXED_PULLS with the values it takes', () => {
    const parsed = parse({ GITDEX_INDEXED_PULLS: 'all' });
    expect(parsed.success ? null : parsed.error.issues[0]?.message).toBe('open or off');
  });
});
