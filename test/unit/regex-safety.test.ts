/**
 * Every regular expression that runs over repository content or caller input, fed 1 MiB of
 * the input that makes a backtracking pattern super-linear. This is a safety test, not a
 * performance test: the failure it guards against takes minutes or hours (a quadratic
 * pattern over 1 MiB), so the bound is deliberately generous.
 */
import { pathTokens, squashed } from '@gitdex/terms';
import { parseTraceparent } from '@gitdex/observability';
import { classifyPath } from '../../services/indexer/src/classify/vendored';
import { RefSelection } from '../../services/indexer/src/ref-selection';
import { findSubmodules, MAX_SUBMODULES, submodulePaths } from '../../services/indexer/src/submodules';
import { parseRepositoryName } from '../../services/reader/src/address/repository-name';
import { lineRange, looksLikeUrl, parseGithubUrl } from '../../services/reader/src/address/github-url';
import { hostAllowed, splitHost } from '../../services/reader/src/http/host';
import { bearerTokens } from '../../services/reader/src/http/auth';
import { decodeCursor } from '../../services/reader/src/list/cursor';
import { queryArgs } from '../../services/reader/src/rest/query';
import { rankPaths, scorePathPair } from '../../services/reader/src/suggest/rank';
import { escapeRegex } from '../../libs/elasticsearch/src/queries';
import type { Request } from 'express';

const MiB = 1 << 20;
/** Far above any linear run over 1 MiB, far below the minutes a quadratic one takes. */
const BOUND_MS = 10_000;

const fill = (unit: string, prefix = '', suffix = '') => prefix + unit.repeat(Math.ceil((MiB - prefix.length - suffix.length) / unit.length)) + suffix;

function withinBound(name: string, run: () => unknown): void {
  const started = performance.now();
  try {
    run();
  } catch {
    // Refusing the input is fine; taking minutes to do so is not.
  }
  const ms = performance.now() - started;
  if (ms > BOUND_MS) throw new Error(`${name} took ${Math.round(ms)} ms on 1 MiB of hostile input`);
}

describe('regular expressions over untrusted input finish on 1 MiB of hostile text', () => {
  it('.gitmodules: the confirmed attack (path = x, spaces, y) and its relatives', () => {
    const inputs = {
      spaces: fill(' ', 'path = x', 'y'),
      tabsAndNewlines: fill(' \t\n', 'path = x', 'y'),
      blankLines: fill('\n \n', '\tpath =', ' y'),
      manyPaths: fill('path = a\n'),
      noNewline: fill('path=path=', '', '='),
      quotes: fill('"', 'path = '),
    };
    for (const [name, text] of Object.entries(inputs)) withinBound(`submodulePaths(${name})`, () => submodulePaths(text));
    // A value longer than any tree path is no submodule.
    expect(submodulePaths(inputs.spaces)).toEqual([]);
    expect(submodulePaths('[submodule "a"]\n\tpath = a' + ' '.repeat(80_000) + '\n\tPath= "b c" \r\n\tpathx = no\n# path = y\n')).toEqual(['a', 'b c']);
  });

  it('.gitmodules: entries are capped and each tree is read once per walk', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `[submodule "m${i}"]\n\tpath = vendor/m${i}\n\turl = ../m${i}\n`).join('');
    expect(submodulePaths(lines)).toHaveLength(MAX_SUBMODULES);
    const reads: string[] = [];
    const trees: Record<string, { path: string; type: string; sha: string }[]> = {
      root: [{ path: 'vendor', type: 'tree', sha: 'vendor' }],
      vendor: [{ path: 'm1', type: 'commit', sha: 'c'.repeat(40) }],
    };
    const source = {
      tree: async (_repo: unknown, sha: string) => {
        reads.push(sha);
        return { sha, truncated: false, entries: (trees[sha] ?? []).map((e) => ({ ...e, mode: e.type === 'tree' ? '040000' : '160000' })) };
      },
    };
    const reader = { source, repository: { id: 1, fullName: 'o/r' } } as unknown as Parameters<typeof findSubmodules>[0];
    const found = await findSubmodules(reader, 'root', lines);
    expect(found).toEqual([{ path: 'vendor/m1', sha: 'c'.repeat(40) }]);
    expect(reads.sort()).toEqual(['root', 'vendor']);
  });

  it('path classification and tokens (repository paths)', () => {
    const paths = {
      builds: fill('build/'),
      buildsNoSlash: fill('build/', '', 'x.md'),
      upper: fill('A'),
      upperLower: fill('AAAAAAAAAa'),
      camel: fill('aB'),
      separators: fill('-_.'),
      generated: fill('.generated.a'),
      minified: fill('.min.'),
      slashes: fill('/'),
    };
    expect(classifyPath('build/out.js').generated).toBe(true);
    expect(classifyPath('a/build/notes.md').generated).toBe(false);
    expect(classifyPath('rebuild/out.js').generated).toBe(false);
    expect(pathTokens('src/HTTPServerV2_readURL.ts')).toEqual(['src', 'http', 'server', 'v2', 'read', 'url', 'ts']);
    for (const [name, path] of Object.entries(paths)) {
      withinBound(`classifyPath(${name})`, () => classifyPath(path));
      withinBound(`pathTokens(${name})`, () => pathTokens(path));
      withinBound(`squashed(${name})`, () => squashed(path));
    }
  });

  it('branch patterns of GITDEX_INDEXED_REFS against long branch names', () => {
    const refs = new RefSelection(['default', 'a*a*a*a*a*a*a*a*b', 'release/*']);
    withinBound('RefSelection.includes', () => refs.includes(`refs/heads/${fill('a')}`, 'main'));
    withinBound('RefSelection.select', () => refs.select('main', [fill('a'), fill('a/')]));
    expect(refs.includes('refs/heads/axaxaxaxaxaxaxaab', 'main')).toBe(true);
    expect(refs.includes('refs/heads/aaaaaaaa', 'main')).toBe(false);
    expect(refs.includes('refs/heads/release/1.0', 'main')).toBe(true);
    expect(refs.includes('refs/heads/release', 'main')).toBe(false);
    expect(new RefSelection(['feat.x+(y)']).includes('refs/heads/feat.x+(y)', 'main')).toBe(true);
    expect(new RefSelection(['feat.x']).includes('refs/heads/featyx', 'main')).toBe(false);
  });

  it('caller input to the reader: repository names, URLs, suggestions, cursors, headers', () => {
    const web = 'https://github.com';
    const inputs = {
      slashes: fill('/', 'a', 'a'),
      slashesEnd: fill('/', 'a/b', '!'),
      dots: fill('a.', 'www.'),
      dotsAa: fill('.aa', 'a'),
      scp: fill(':', 'git@'),
      scheme: fill('a', 'a', ':/'),
      hash: fill('1', '#L'),
      words: fill('aB-'),
      spaces: fill(' ', 'Bearer x', 'y'),
      base64: fill('A', '', '!'),
      digits: fill('1', '-'),
      dotExt: fill('.a'),
    };
    for (const [name, text] of Object.entries(inputs)) {
      withinBound(`parseRepositoryName(${name})`, () => parseRepositoryName(text, web));
      withinBound(`looksLikeUrl(${name})`, () => looksLikeUrl(text, web));
      withinBound(`parseGithubUrl(${name})`, () => parseGithubUrl(text, web));
      withinBound(`lineRange(${name})`, () => lineRange(text));
      withinBound(`splitHost(${name})`, () => splitHost(text));
      withinBound(`hostAllowed(${name})`, () => hostAllowed(text, ['example.com']));
      withinBound(`decodeCursor(${name})`, () => decodeCursor(text));
      withinBound(`queryArgs(${name})`, () => queryArgs({ start_line: text, path: text }));
      withinBound(`escapeRegex(${name})`, () => escapeRegex(text));
      withinBound(`parseTraceparent(${name})`, () => parseTraceparent(text));
      withinBound(`bearer(${name})`, () => bearerTokens([{ token: 'x'.repeat(32), principal: { name: 'p', repositories: [] } as never }])({ headers: { authorization: text } } as Request));
      withinBound(`scorePathPair(${name})`, () => scorePathPair(text.slice(0, 64 * 1024), 'src/a.ts'));
      withinBound(`rankPaths(${name})`, () => rankPaths(text.slice(0, 64 * 1024), ['src/a.ts', 'README.md'], 5));
    }
  });
});
