import fc from 'fast-check';
import { ACME_PRIVATE, PUBLIC, UNINDEXED_PRIVATE, VAULT } from './world';

/** fast-check runs per property: GITDEX_FUZZ_RUNS scales every suite up (or down) at once. */
export function runs(base: number): number {
  const scale = Number(process.env.GITDEX_FUZZ_RUNS_SCALE ?? '1');
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** Paths that have broken path handling elsewhere: traversal, encodings, separators, NUL, control and odd Unicode. */
export const HOSTILE_PATHS = [
  '..',
  '../..',
  '../etc/passwd',
  'src/../../../etc/passwd',
  'src/..',
  './../x',
  '....//....//etc/passwd',
  '%2e%2e',
  '%2e%2e/%2e%2e/etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%252e%252e%252f',
  '.%2e/',
  '%2e./',
  '%c0%ae%c0%ae/',
  '..%c0%af',
  '..%00/',
  '..\\..\\windows\\win.ini',
  'src\\..\\..\\x',
  '\\\\server\\share\\x',
  'C:\\Windows\\system.ini',
  'C:/Windows',
  '/etc/passwd',
  '//etc/passwd',
  '///',
  '/',
  'file:///etc/passwd',
  'https://github.com/hidden-org/vault-q7/blob/main/src/index.ts',
  'https://github.com/acme/internal-x9/tree/main/docs',
  'https://github.com/acme/tools/blob/main/../../hidden-org/vault-q7/blob/main/README.md',
  'https://evil.example.com/acme/tools/blob/main/README.md',
  'https://raw.githubusercontent.com/hidden-org/vault-q7/main/README.md',
  'git@github.com:hidden-org/vault-q7.git',
  'javascript:alert(1)',
  'data:text/plain,hi',
  'https://github.com/acme/tools/blob/main/README.md#L99999999999999999999-L1',
  'https://github.com/acme/tools/blob/main/README.md#L-1',
  'https://github.com/acme/tools/blob/%00/README.md',
  'https://github.com/hidden-org/vault-q7/pull/3/files/src/index.ts',
  'https://github.com/acme/internal-x9/pull/3',
  'https://github.com/acme/tools/pull/3/files/README.md',
  'https://github.com/acme/tools/pull/99999999999/files/x',
  'https://github.com/acme/tools/pull/3/commits/deadbeef',
  'https://github.com/acme/tools/blob/refs/pull/3/head/README.md',
  'src/index.ts\u0000.png',
  'a\u0000b',
  '\u0000',
  '\u0007\u001b[31mred',
  '\r\nX-Injected: 1',
  'line\nbreak',
  '\t',
  '\u202eevil.txt',
  '\u200bREADME.md',
  '\ufeffREADME.md',
  'unicode/cafe\u0301.md',
  'unicode/café.md',
  'UNICODE/CAFÉ.MD',
  'unicode/ｃａｆé.md',
  'ﬁle',
  '\ud800',
  '\udfff\ud800',
  '😀/'.repeat(300),
  '.',
  './',
  '',
  ' ',
  '  README.md  ',
  'README.md/',
  'README.md/.',
  'README.md/..',
  'dots/...',
  'dots/..hidden',
  'dots/.../x',
  '%',
  '%%',
  '%zz',
  '%ff%fe',
  '%u002e%u002e',
  '?',
  '#',
  '&',
  'src/index.ts?x=1',
  'src/*',
  '*',
  '**/*',
  'src/%',
  'src/_',
  '[a-z]',
  '{a,b}',
  '~',
  '~/.ssh/id_rsa',
  '$HOME',
  '${jndi:ldap://x}',
  "'; DROP TABLE files; --",
  '" OR 1=1 --',
  'path:(*)',
  '*:*',
  'a AND b',
  '\\',
  '/\\/\\',
  'x'.repeat(999),
  'x'.repeat(1000),
  'x'.repeat(1001),
  'x'.repeat(5000),
  'a/'.repeat(600),
  '/'.repeat(2000),
  'vault-only-z8/keys.txt',
  'acme-only-k3/config.ts',
  'docs/plan-zz9.md',
  'space name/file with spaces.txt',
  'percent/%2e%2e.txt',
  'back\\slash.txt',
  // GitHub and published-site URLs whose names or escapes must come back as bad arguments.
  'https://github.com/..%2Frate_limit/x',
  'https://github.com/../user/blob/main/README.md',
  'https://github.com/acme/tools/blob/main/..%2F..%2Fuser',
  'https://docs.example.com/%E0%A4%A/b/c',
  'https://docs.example.com/deep/a/b/c/d/e/f/g/h/i/j/k/leaf',
  `https://docs.example.com/${'a/'.repeat(1000)}\u2028x`,
  `https://docs.example.com/${'a/'.repeat(2000)}`,
  'https://internal.example.com/guide',
  'https://unindexed.example.com/x',
  'https://elsewhere.example.org/x',
];

const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('..', '.', '', '%2e%2e', '%2f', '%00', '\\', 'src', 'docs', 'unicode', 'café.md', 'cafe\u0301.md', 'README.md', 'index.ts', 'vault-only-z8', '~', '*', '%') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);

/** A path built from hostile pieces, or a hostile path as is, or random text. */
export const hostilePath: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_PATHS) },
  { weight: 4, arbitrary: fc.array(segment, { minLength: 1, maxLength: 8 }).chain((parts) => fc.constantFrom('/', '\\', '//').map((sep) => parts.join(sep))) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 990, maxLength: 1100 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('src/index.ts', 'README.md', 'docs/guide.md', 'src/server/http.ts')
      .chain((p) => fc.constantFrom(p, p.toUpperCase(), `/${p}`, `./${p}`, `${p}/`, p.replaceAll('/', '//'), p.normalize('NFD'))),
  },
);

/** Repository names: readable, private (in any case and as URLs), their twins, and junk. */
export const hostileRepository: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PUBLIC, ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(ACME_PRIVATE, VAULT, UNINDEXED_PRIVATE)
      .chain((name) =>
        fc.constantFrom(
          name.toUpperCase(),
          `https://github.com/${name}`,
          `https://github.com/${name}/blob/main/README.md`,
          `https://github.com/${name}.git`,
          `git@github.com:${name}.git`,
          `http://github.com/${name}/`,
          `${name}/`,
          ` ${name} `,
          `${name}\u0000`,
          name.replace('/', '//'),
          name.replace('/', '\\'),
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '/',
      'acme',
      'acme/',
      '/tools',
      'a/b/c',
      '..',
      '../acme/tools',
      'acme/..',
      'acme/tools/../../hidden-org/vault-q7',
      '../user',
      './user',
      'acme/.',
      '../rate_limit',
      '..%2Fuser/x',
      'https://github.com/..%2Frate_limit/x',
      'https://github.com/..%2Fuser/x/blob/main/a.md',
      'git@github.com:../user.git',
      'oc--to/x',
      '-acme/tools',
      `${'a'.repeat(40)}/x`,
      `a/${'r'.repeat(101)}`,
      'hidden-org',
      'hidden-org/*',
      '*',
      '*/*',
      'acme/*',
      '%',
      'acme/tools%00',
      'x'.repeat(2049),
      `${'a'.repeat(500)}/${'b'.repeat(500)}`,
      'https://evil.example.com/acme/tools',
      'javascript:alert(1)',
      'acme/tools?x=1',
      'acme/tools#x',
      'ACME/TOOLS',
      'acme／tools',
      'аcme/tools',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 })).map(([o, r]) => `${o}/${r}`) },
);

export const hostileRef: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'main',
    'refs/heads/main',
    'heads/main',
    'tags/v1',
    'refs/tags/v1',
    'HEAD',
    'main~1',
    'main^',
    '@{-1}',
    '..',
    'refs/heads/../../x',
    'a'.repeat(7),
    '0'.repeat(40),
    'f'.repeat(41),
    'deadbee',
    'DEADBEEF',
    '',
    ' ',
    'x'.repeat(301),
    'refs/heads/',
    '*',
    'main\u0000',
    'refs/heads/main\n',
    'pull/3',
    'pull/3/head',
    'refs/pull/3/head',
    'pull/0',
    'pull/99999999999',
    'pull/*',
    'https://github.com/hidden-org/vault-q7/pull/3',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.stringMatching(/^[0-9a-f]{1,45}$/),
);

/** Numbers a JSON body can carry, and the ones it cannot that a program may still send. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    2,
    400,
    401,
    10_000,
    2 ** 31,
    2 ** 32,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    0.5,
    1.5,
    NaN,
    Infinity,
    -Infinity,
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom('1', '10', '-1', '1e3', '0x10', ' 5 ', '', 'NaN', 'Infinity', '1'.repeat(400)),
);

/** Any value of the wrong type: what a confused or hostile program may send in any argument. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { toString: 'x' }, { __proto__: { polluted: true } }, { constructor: { prototype: { polluted: true } } }),
  hostileNumber,
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 4 }),
);

/** 10,000 levels of arrays or objects, built without recursion. */
export function deeplyNested(levels: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** A value of an argument: mostly a hostile value of the right type, sometimes the wrong type. */
export const slot = <T>(right: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrongType });

/** A whole number as the schemas want it most of the time, and any number now and then. */
const lineOrCount: fc.Arbitrary<unknown> = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 1200 }) }, { weight: 1, arbitrary: hostileNumber });
/** Present in `present` calls out of `present + absent` (left out otherwise). */
/**
 * Regexes whose program is huge or whose matching keeps every instruction alive (issue 40):
 * counted repetition repeated (`a{0,999}` × 125), long chains of `[^!]{999}` ending in `!`,
 * nested counts, and the classic backtracking shapes. Each fits the 1,000-character limit.
 */
export const hostileRegex: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom('a', '.', '[^!]', '\\w', '(?:ab|cd)', '\\pL'), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 125 }))
    .map(([atom, min, span, times]) => {
      const one = `${atom}{${Math.min(min, min + span)},${min + span > 1000 ? 1000 : min + span}}`;
      return one.repeat(Math.max(1, Math.min(times, Math.floor(1000 / one.length))));
    }),
  fc.integer({ min: 1, max: 110 }).map((times) => `${'[^!]{999}'.repeat(times)}!`.slice(0, 1000)),
  fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 })).map(([a, b, c]) => `((x{${a}}){${b}}){${c}}`),
  fc.constantFrom('(a+)+$', '(.*a){20}', '(a|aa)*b', `${'(a?)'.repeat(100)}${'a'.repeat(100)}`, '\\Q' + 'z'.repeat(990) + '\\E{2}', '(?i)[[:alpha:]]{500}x'),
);

/** Path globs: up to 20, up to 1,000 characters each, of the pieces that compile to the most. */
export const hostileGlobs: fc.Arbitrary<string | string[]> = fc.oneof(
  fc.constantFrom('*.ts', 'src/**', 'docs/', '{src,docs}/**/*.{ts,md}'),
  fc.array(
    fc.array(fc.constantFrom('*', '**/', '?', '[a-z]', '{a,b}', 'x', '/'), { minLength: 1, maxLength: 400 }).map((parts) => parts.join('').slice(0, 1000) || '*'),
    { minLength: 1, maxLength: 20 },
  ),
);

const optional = <T>(arbitrary: fc.Arbitrary<T>, absent = 1, present = 1): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary });

/**
 * Arguments for each tool. "shaped": every value of the right type, its content hostile (paths,
 * names, refs, cursors, numbers), so calls get past the schema into the tools. "malformed": wrong
 * types, unknown and prototype-polluting keys, missing arguments: what the schema must refuse.
 */
export function toolArguments(tool: string, mode: 'shaped' | 'malformed' = 'shaped'): fc.Arbitrary<Record<string, unknown>> {
  const v = <T>(right: fc.Arbitrary<T>) => (mode === 'shaped' ? right : slot(right));
  const repository = mode === 'shaped' ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...PUBLIC, ACME_PRIVATE, VAULT) }, { weight: 2, arbitrary: hostileRepository }) : slot(hostileRepository);
  const number = mode === 'shaped' ? lineOrCount : hostileNumber;
  const path =
    mode === 'shaped'
      ? fc.oneof(
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              'README.md',
              'src/index.ts',
              'src/server/http.ts',
              'docs/guide.md',
              'docs',
              'src',
              'vault-only-z8/keys.txt',
              'acme-only-k3/config.ts',
              'space name/file with spaces.txt',
              'unicode/café.md',
            ),
          },
          { weight: 2, arbitrary: hostilePath },
        )
      : slot(hostilePath);
  const within = (max: number) => (mode === 'shaped' ? fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max }) }, { weight: 1, arbitrary: hostileNumber }) : number);
  const shape: Record<string, fc.Arbitrary<unknown>> = ((): Record<string, fc.Arbitrary<unknown>> => {
    switch (tool) {
      case 'read_file':
        return { repository, path, ref: optional(v(hostileRef), 3), start_line: optional(number), end_line: optional(number) };
      case 'list_files':
        return { repository, folder: optional(path), ref: optional(v(hostileRef), 3), depth: optional(within(10)), limit: optional(within(300)), cursor: optional(v(hostileCursor), 4) };
      case 'repository_overview':
        return { repository, ref: optional(v(hostileRef), 3) };
      case 'repositories_state':
        return { repositories: optional(v(fc.array(fc.oneof(repository, hostileRepository), { maxLength: 8 })), 1, 4) };
      case 'search_code':
        return {
          repository,
          query: fc.oneof({ weight: 3, arbitrary: path }, { weight: 1, arbitrary: hostileRegex }),
          regex: optional(v(fc.boolean())),
          path: optional(v(hostileGlobs), 4),
          exclude: optional(v(hostileGlobs), 4),
          ref: optional(v(hostileRef), 3),
          refs: optional(v(fc.array(hostileRef, { maxLength: 22 })), 4),
          limit: optional(within(50)),
        };
      case 'find_symbol':
      case 'find_references':
        return {
          repository: optional(repository, 1, 2),
          // Rarely with repository too (refused): most calls should reach the index.
          repositories: optional(v(fc.array(fc.oneof(repository, fc.constantFrom('acme/*', 'vault/*', '*')), { maxLength: 4 })), 6),
          name: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom('start', 'CANARY', 'secret', 'IndexStore', ...(tool === 'find_symbol' ? ['Store.flip', 'flip*'] : [])) },
            { weight: 1, arbitrary: path },
          ),
          ...(tool === 'find_symbol' ? { kind: optional(v(fc.constantFrom('function', 'class', 'nope'))) } : {}),
          path: optional(v(hostileGlobs), 4),
          language: optional(v(fc.constantFrom('TypeScript', 'Go'))),
          ref: optional(v(hostileRef), 3),
          limit: optional(within(50)),
          cursor: optional(v(hostileCursor), 4),
        };
      case 'file_outline':
        return { repository, path, ref: optional(v(hostileRef), 3) };
      case 'compare':
        return {
          repository,
          base: fc.oneof(fc.constantFrom('main', 'HEAD~1'), v(hostileRef)),
          head: fc.oneof(fc.constant('main'), v(hostileRef)),
          path: optional(path),
          context_lines: optional(within(20)),
          cursor: optional(v(hostileCursor), 4),
        };
      case 'list_commits':
        return {
          repository,
          ref: optional(v(hostileRef), 3),
          path: optional(path),
          author: optional(v(fc.string({ maxLength: 40 })), 3),
          since: optional(v(fc.oneof(fc.constant('2025-01-01'), fc.string({ maxLength: 30 })))),
          limit: optional(within(100)),
          cursor: optional(v(hostileCursor), 4),
        };
      case 'blame':
        return { repository, path, ref: optional(v(hostileRef), 3), start_line: optional(number), end_line: optional(number) };
      default:
        return { repository, query: path, ref: optional(v(hostileRef), 3), limit: optional(within(50)) };
    }
  })();
  const clean = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  if (mode === 'shaped') return fc.record(shape).map(clean);
  const extra = fc.option(fc.dictionary(fc.constantFrom('start', 'file', '__proto__', 'constructor', 'toString', 'repository ', 'Path', 'x'), wrongType, { maxKeys: 2 }), { freq: 3 });
  return fc.tuple(fc.record(shape, { requiredKeys: [] }), extra).map(([args, more]) => {
    const out = clean(args);
    if (more) for (const [k, value] of Object.entries(more)) Object.defineProperty(out, k, { value, enumerable: true, configurable: true, writable: true });
    return out;
  });
}

/** Cursors: junk, base64 of junk JSON, and real-looking ones with fields changed. */
export const hostileCursor: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
  fc
    .record({ v: fc.constantFrom(1, 2, -1), r: fc.integer(), ref: hostileRef, g: hostileNumber, f: hostilePath, d: hostileNumber, o: hostileNumber, a: fc.string() }, { requiredKeys: [] })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  // Well-formed cursors forged for any repository of the world (ids 101 to 105, private ones included) and any position.
  fc
    .record({
      v: fc.constant(1),
      r: fc.integer({ min: 100, max: 106 }),
      ref: fc.oneof(fc.constant('refs/heads/main'), hostileRef),
      f: fc.oneof(fc.constantFrom('', 'src', 'docs', 'vault-only-z8'), hostilePath),
      d: fc.integer({ min: 1, max: 12 }),
      g: fc.oneof(fc.constantFrom(0, 1, 2), fc.nat()),
      c: fc.string({ maxLength: 41 }),
      t: fc.constant(null),
      p: fc.constantFrom('folders', 'files'),
      a: fc.oneof(fc.constant(''), hostilePath),
      o: fc.nat(),
      n: fc.nat(),
    })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.constantFrom('', '=', '====', 'x'.repeat(4097), '\u0000'),
);
