import { createLogger, type Log } from '@gitdex/observability';
import { resolveDeps } from '../../src/deps';
import { SqliteIndexStore } from '@gitdex/sqlite';

test("a pino logger from @gitdex/observability is the reader's Log", () => {
  const logger: Log = createLogger({ level: 'silent' });
  expect(resolveDeps({ index: new SqliteIndexStore({ file: ':memory:' }), logger }).logger).toBe(logger);
});

test('resolveDeps applies defaults and refuses nonsense at construction', () => {
  const deps = resolveDeps({ index: new SqliteIndexStore({ file: ':memory:' }) });
  expect(deps.limits).toMatchObject({ maxLines: 400, maxChars: 16_000, maxListEntries: 1_000, maxDepth: 64 });
  expect(deps.githubWebUrl).toBe('https://github.com');
  expect(deps.access({ private: true } as never, null)).toBe(false);
  expect(resolveDeps(deps)).toBe(deps);
  expect(() => resolveDeps({ index: new SqliteIndexStore({ file: ':memory:' }), limits: { maxLines: 0 } })).toThrow(/limits.maxLines must be a positive whole number/);
  expect(() => resolveDeps({ index: new SqliteIndexStore({ file: ':memory:' }), githubWebUrl: 'not a url' })).toThrow(/githubWebUrl must be a URL/);
  expect(() => resolveDeps({} as never)).toThrow(/an index \(IndexStore\) is required/);
});
