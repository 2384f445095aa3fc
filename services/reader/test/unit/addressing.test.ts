import { lineRange, looksLikeUrl, parseGithubUrl, splitRefAndPath } from '../../src/address/github-url';
import { encodePath, normalizeRepoPath } from '../../src/address/repo-path';
import { parseRepositoryName } from '../../src/address/repository-name';
import { matchRef } from '../../src/target';
import { blobUrl, treeUrl } from '../../src/github-links';
import { readyState } from '../support/documents';

const WEB = 'https://github.com';

describe('parseGithubUrl', () => {
  test.each([
    ['https://github.com/octo/api', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['https://github.com/octo/api.git', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['github.com/octo/api/', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['git@github.com:octo/api.git', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['https://www.github.com/octo/api/issues/3', { fullName: 'octo/api', kind: 'repository', rest: [] }],
    ['https://github.com/octo/api/blob/main/src/index.ts#L10-L20', { fullName: 'octo/api', kind: 'file', rest: ['main', 'src', 'index.ts'], startLine: 10, endLine: 20 }],
    ['https://github.com/octo/api/blob/main/README.md?plain=1#L7', { fullName: 'octo/api', kind: 'file', rest: ['main', 'README.md'], startLine: 7, endLine: 7 }],
    ['https://github.com/octo/api/tree/feature/x/src', { fullName: 'octo/api', kind: 'folder', rest: ['feature', 'x', 'src'] }],
    ['https://raw.githubusercontent.com/octo/api/main/a%20b/c.md', { fullName: 'octo/api', kind: 'file', rest: ['main', 'a b', 'c.md'] }],
    ['https://ghe.example.com/octo/api/blob/main/x.ts', { fullName: 'octo/api', kind: 'file', rest: ['main', 'x.ts'] }],
  ])('%s', (url, expected) => {
    expect(parseGithubUrl(url, 'https://ghe.example.com')).toEqual(expected);
  });

  test('refuses other hosts and URLs without owner/name', () => {
    expect(parseGithubUrl('https://gitlab.com/octo/api', WEB)).toBeNull();
    expect(parseGithubUrl('https://github.com/octo', WEB)).toBeNull();
    expect(parseGithubUrl('http://[bad', WEB)).toBeNull();
  });

  test('line ranges with and without columns', () => {
    expect(lineRange('#L3C2-L9C1')).toEqual({ startLine: 3, endLine: 9 });
    expect(lineRange('#heading')).toEqual({});
  });

  test('looksLikeUrl tells URLs from owner/name and paths, also paths whose first folder looks like a host', () => {
    const web = 'https://ghe.example.com';
    expect(looksLikeUrl('octo/api', web)).toBe(false);
    expect(looksLikeUrl('src/index.ts', web)).toBe(false);
    expect(looksLikeUrl('jdk.jpackage/jdk/jpackage/internal/BundlerParamInfo.java', web)).toBe(false);
    expect(looksLikeUrl('example.com/octo/index.html', web)).toBe(false);
    expect(looksLikeUrl('github.com/octo/api', web)).toBe(true);
    expect(looksLikeUrl('www.github.com/octo/api', web)).toBe(true);
    expect(looksLikeUrl('ghe.example.com/octo/api/blob/main/a.ts', web)).toBe(true);
    expect(looksLikeUrl('https://github.com/octo/api', web)).toBe(true);
    expect(looksLikeUrl('git@github.com:octo/api.git', web)).toBe(true);
  });
});

describe('splitRefAndPath', () => {
  test('the longest known branch wins, so branches may hold slashes', () => {
    expect(splitRefAndPath(['feature', 'x', 'src', 'a.ts'], ['main', 'feature/x'])).toEqual({ ref: 'feature/x', path: 'src/a.ts' });
    expect(splitRefAndPath(['main', 'src', 'a.ts'], ['main', 'feature/x'])).toEqual({ ref: 'main', path: 'src/a.ts' });
    expect(splitRefAndPath(['0123456789ab', 'a.ts'], ['main'])).toEqual({ ref: '0123456789ab', path: 'a.ts' });
    expect(splitRefAndPath([], ['main'])).toEqual({ ref: undefined, path: '' });
  });
});

describe('normalizeRepoPath', () => {
  test('drops leading, trailing and doubled slashes and "." segments', () => {
    expect(normalizeRepoPath('/src//index.ts/', 'path')).toBe('src/index.ts');
    expect(normalizeRepoPath('./src/./a.ts', 'path')).toBe('src/a.ts');
    expect(normalizeRepoPath('/', 'folder')).toBe('');
  });
  test('refuses "..", NUL bytes and paths over 1,000 characters, saying what to fix', () => {
    expect(() => normalizeRepoPath('src/../../etc/passwd', 'path')).toThrow(/"\.\." is not allowed/);
    expect(() => normalizeRepoPath('src/a\0.ts', 'path')).toThrow(/NUL byte/);
    expect(() => normalizeRepoPath('a/'.repeat(600), 'path')).toThrow(/at most 1,000/);
  });
  test('encodePath encodes each segment and keeps slashes', () => {
    expect(encodePath('a b/c#d/é.md')).toBe('a%20b/c%23d/%C3%A9.md');
  });
});

describe('parseRepositoryName', () => {
  test.each([
    ['octo/api', 'octo/api'],
    [' Octo/API ', 'Octo/API'],
    ['octo/api.git', 'octo/api'],
    ['https://github.com/octo/api/blob/main/x.ts', 'octo/api'],
    ['git@github.com:octo/api.git', 'octo/api'],
  ])('%s → %s', (input, expected) => {
    expect(parseRepositoryName(input, WEB)).toBe(expected);
  });
  test.each(['octo', 'octo/api/extra', 'octo api/x', 'https://gitlab.com/a/b'])('refuses %s', (input) => {
    expect(() => parseRepositoryName(input, WEB)).toThrow(/repository:/);
  });
});

describe('matchRef', () => {
  const main = readyState(1, 'refs/heads/main', 'a'.repeat(40), 1, 1);
  const dev = readyState(1, 'refs/heads/dev', 'b'.repeat(40), 1, 1);
  const tag = readyState(1, 'refs/tags/v1', 'c'.repeat(40), 1, 1);
  const states = [dev, main, tag];
  test.each([
    ['main', main],
    ['refs/heads/dev', dev],
    ['heads/dev', dev],
    ['v1', tag],
    ['tags/v1', tag],
    ['bbbbbbb', dev],
    ['C'.repeat(40), tag],
  ])('%s', (input, expected) => {
    expect(matchRef(states, input)).toBe(expected);
  });
  test('unknown refs and unknown commits match nothing', () => {
    expect(matchRef(states, 'nope')).toBeUndefined();
    expect(matchRef(states, 'dddddddddddd')).toBeUndefined();
    expect(matchRef(states, 'aaaa')).toBeUndefined();
  });
});

describe('GitHub links', () => {
  test('blob URLs pin the commit and encode each segment', () => {
    expect(blobUrl(WEB, 'o/r', 'abc', 'a b/c.ts', { start: 3, end: 9 })).toBe('https://github.com/o/r/blob/abc/a%20b/c.ts#L3-L9');
    expect(blobUrl(WEB, 'o/r', 'abc', 'c.ts', { start: 3, end: 3 })).toBe('https://github.com/o/r/blob/abc/c.ts#L3');
    expect(treeUrl(WEB, 'o/r', 'abc', '')).toBe('https://github.com/o/r/tree/abc');
  });
});
