import type { Request } from 'express';
import { bearerTokens, parseReaderTokens } from '../../src/http/auth';
import { originAllowed } from '../../src/http/origin';
import { listParam, queryArgs } from '../../src/rest/query';
import { pickReadme } from '../../src/tools/repository-overview';

describe('originAllowed', () => {
  test('no Origin, localhost and configured origins pass; others do not', () => {
    expect(originAllowed(undefined, [])).toBe(true);
    expect(originAllowed('http://localhost:6274', [])).toBe(true);
    expect(originAllowed('http://127.0.0.1:3000', [])).toBe(true);
    expect(originAllowed('http://[::1]:3000', [])).toBe(true);
    expect(originAllowed('https://ide.example.com', ['https://ide.example.com'])).toBe(true);
    expect(originAllowed('https://evil.example.com', ['https://ide.example.com'])).toBe(false);
    expect(originAllowed('http://localhost.evil.example.com', [])).toBe(false);
    expect(originAllowed('null', [])).toBe(false);
    expect(originAllowed('https://anything.example', ['*'])).toBe(true);
  });
});

describe('bearerTokens', () => {
  const request = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as Request;
  const authenticate = bearerTokens(parseReaderTokens('alice:s3cret, bob:other'));
  test('accepts known tokens as their principal', () => {
    expect(authenticate(request('Bearer s3cret'))).toEqual({ id: 'alice' });
    expect(authenticate(request('bearer other'))).toEqual({ id: 'bob' });
  });
  test('refuses unknown, missing and malformed credentials', () => {
    expect(authenticate(request('Bearer nope'))).toBeNull();
    expect(authenticate(request())).toBeNull();
    expect(authenticate(request('Basic czNjcmV0'))).toBeNull();
  });
  test('bare tokens get numbered principals', () => {
    expect(parseReaderTokens('t1,t2')).toEqual([
      { token: 't1', principal: { id: 'token-1' } },
      { token: 't2', principal: { id: 'token-2' } },
    ]);
    expect(() => bearerTokens([])).toThrow(/at least one token/);
  });
});

describe('queryArgs', () => {
  test('parses whole numbers, renames, ignores _ parameters, refuses repeats', () => {
    expect(queryArgs({ start_line: '10', limit: '5', q: 'x', _: '123', ref: 'main' }, { q: 'query' })).toEqual({ start_line: 10, limit: 5, query: 'x', ref: 'main' });
    expect(queryArgs({ depth: 'two' })).toEqual({ depth: 'two' });
    expect(() => queryArgs({ ref: ['a', 'b'] })).toThrow(/give it once/);
    expect(listParam(['a/b,c/d', 'e/f'])).toEqual(['a/b', 'c/d', 'e/f']);
  });
});

describe('pickReadme', () => {
  test('README.md first, then other Markdown, then the rest; root only', () => {
    const files = ['readme.txt', 'Readme.rst', 'README', 'readme.md', 'README.md', 'docs/README.md', 'READMEFIRST.md'].map((path) => ({ path, name: path.split('/').pop()! }));
    expect(pickReadme(files)).toEqual(['README.md', 'readme.md', 'Readme.rst', 'README', 'readme.txt']);
  });
});
