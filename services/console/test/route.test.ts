import { fileHash, parseRoute, routeHash, routeRepository, treeHash, type Route } from '../src/web/route';

describe('console routes (the URL fragment)', () => {
  it('reads every view', () => {
    expect(parseRoute('')).toEqual({ view: 'home' });
    expect(parseRoute('#/')).toEqual({ view: 'home' });
    expect(parseRoute('#/octo')).toEqual({ view: 'home' });
    expect(parseRoute('#/octo/api')).toEqual({ view: 'tree', owner: 'octo', repo: 'api', folder: '' });
    expect(parseRoute('#/octo/api/tree/src/utils')).toEqual({ view: 'tree', owner: 'octo', repo: 'api', folder: 'src/utils' });
    expect(parseRoute('#/octo/api/blob/src/index.ts')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/index.ts' });
    // A file route without a path is the repository's root.
    expect(parseRoute('#/octo/api/blob')).toEqual({ view: 'tree', owner: 'octo', repo: 'api', folder: '' });
  });

  it('reads and writes a file route at a line (search results link there)', () => {
    expect(parseRoute('#/octo/api/blob/src/index.ts?line=12')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/index.ts', line: 12 });
    expect(parseRoute('#/octo/api/blob/src/index.ts?line=x')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/index.ts' });
    expect(fileHash('octo', 'api', 'docs/a?b.md', 7)).toBe('#/octo/api/blob/docs/a%3Fb.md?line=7');
    expect(parseRoute(fileHash('octo', 'api', 'docs/a?b.md', 7))).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'docs/a?b.md', line: 7 });
  });

  it('keeps the blame toggle in the address, beside a line or alone', () => {
    expect(parseRoute('#/octo/api/blob/src/a.ts?blame=1')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/a.ts', blame: true });
    expect(parseRoute('#/octo/api/blob/src/a.ts?line=4&blame=1')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/a.ts', line: 4, blame: true });
    expect(parseRoute('#/octo/api/blob/src/a.ts?blame=0')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/a.ts' });
    expect(routeHash({ view: 'file', owner: 'octo', repo: 'api', path: 'src/a.ts', line: 4, blame: true })).toBe('#/octo/api/blob/src/a.ts?line=4&blame=1');
  });

  it('drops dot segments and survives bad escapes', () => {
    expect(parseRoute('#/octo/api/blob/src/../../etc/passwd')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: 'src/etc/passwd' });
    expect(parseRoute('#/octo/api/blob/100%/x')).toEqual({ view: 'file', owner: 'octo', repo: 'api', path: '100%/x' });
  });

  it('writes routes that read back the same, whatever the characters', () => {
    const routes: Route[] = [
      { view: 'home' },
      { view: 'tree', owner: 'octo', repo: 'api', folder: '' },
      { view: 'tree', owner: 'octo', repo: 'api.js', folder: 'a b/c#d' },
      { view: 'file', owner: 'o-1', repo: 'r_2', path: 'docs/100% ready?.md' },
      { view: 'file', owner: 'octo', repo: 'api', path: 'src/ünïcode/文件.ts' },
      { view: 'file', owner: 'octo', repo: 'api', path: 'a?blame=1.ts', blame: true },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
    expect(treeHash('octo', 'api', 'src')).toBe('#/octo/api/tree/src');
    expect(fileHash('octo', 'api', 'a b.ts')).toBe('#/octo/api/blob/a%20b.ts');
    expect(routeRepository(parseRoute('#/octo/api/blob/x'))).toBe('octo/api');
    expect(routeRepository({ view: 'home' })).toBeNull();
  });
});
