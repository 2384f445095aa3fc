import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadEnv, parseReaderTokenFile, parseReaderTokenList } from '@gitdex/contracts';
import { parseReaderTokens } from '../../src/http/auth';

const A = 'a'.repeat(16);
const B = 'b'.repeat(24);

function problems(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('GITDEX_READER_TOKENS', () => {
  test('name:token=patterns, entries by ";" or new lines, patterns by ","; case-insensitive; public grants nothing private', () => {
    const env = loadEnv({ GITDEX_READER_TOKENS: `alice:${A}=Acme/*, octo/Hello ;\n ci:${B}=*;bot:${'c'.repeat(16)}=public` });
    expect(env.GITDEX_READER_TOKENS).toEqual([
      { name: 'alice', token: A, repositories: ['acme/*', 'octo/hello'] },
      { name: 'ci', token: B, repositories: ['*'] },
      { name: 'bot', token: 'c'.repeat(16), repositories: [] },
    ]);
  });

  test('a token may hold ":", "=" (base64 padding) and any visible ASCII but ";": the patterns follow the last "="', () => {
    const token = 'Zm9v:YmFy/+~!@#$%^&*()[]{}<>?,.=='.padEnd(40, 'x') + '==';
    expect(parseReaderTokenList(`b64:${token}=acme/*`).tokens).toEqual([{ name: 'b64', token, repositories: ['acme/*'] }]);
    expect(parseReaderTokenList(`b64:${token}=public`).tokens[0]!.token).toBe(token);
  });

  test('the older form (no "=" or ";") still works: name:token or bare tokens, comma-separated, public repositories only', () => {
    expect(loadEnv({ GITDEX_READER_TOKENS: `alice:${A}, ${B}` }).GITDEX_READER_TOKENS).toEqual([
      { name: 'alice', token: A, repositories: [] },
      { name: 'token-2', token: B, repositories: [] },
    ]);
    expect(parseReaderTokens(`alice:${A}`)).toEqual([{ token: A, principal: { id: 'alice' } }]);
    expect(parseReaderTokens(`alice:${A}=acme/*`)).toEqual([{ token: A, principal: { id: 'alice', repositories: ['acme/*'] } }]);
  });

  const SECRET = 'do-not-print-me-0123456789';
  test.each<[string, RegExp]>([
    [`alice=${SECRET}`, /entry 1: write it as name:token=repositories/],
    [`alice:${SECRET}`.replace(':', ';'), /write it as name:token=repositories/],
    [`alice:${SECRET};bob:${A}=*`, /entry 1 \(alice\): end it with "=" and the repositories it may read/],
    [`alice:${SECRET}=`, /entry 1 \(alice\): nothing after the last "="/],
    [`alice:${SECRET}==`, /nothing after the last "=".*a token that ends in "=" still needs them/],
    [`alice:${SECRET}=acme/**`, /entry 1 \(alice\): repository pattern 1 is not owner\/name, owner\/\* or \*/],
    [`alice:${SECRET}=acme`, /repository pattern 1 is not/],
    [`alice:${SECRET}=acme/*,${SECRET}`, /repository pattern 2 is not/],
    [`alice:${SECRET}=a/b/c`, /repository pattern 1 is not/],
    [`al ice:${SECRET}=*`, /entry 1: the name \(before ":"\) takes letters, digits/],
    [`alice:=*`, /alice: the token is empty/],
    [`alice:tab\t${SECRET}=*`, /alice: the token holds a space or a character that is not visible ASCII/],
    [`alice:tøken-${SECRET}=*`, /not visible ASCII/],
    [`alice:${SECRET}=*;alice:${A}=*`, /the name alice is used twice/],
    [`alice:${SECRET}=*;bob:${SECRET}=*`, /alice and bob have the same token/],
    [`alice:short=*`, /alice: the token has 5 characters; use at least 16 random ones/],
  ])('%s is refused at start, naming the variable, never quoting the token', (value, message) => {
    const found = problems({ GITDEX_READER_TOKENS: value });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((p) => p.variable === 'GITDEX_READER_TOKENS')).toBe(true);
    expect(found.map((p) => p.message).join('\n')).toMatch(message);
    const error = (() => {
      try {
        loadEnv({ GITDEX_READER_TOKENS: value });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(error).toMatch(/^Invalid configuration:\n {2}GITDEX_READER_TOKENS: /);
    expect(error).not.toContain(SECRET);
    expect(error).not.toContain('short');
  });
});

describe('GITDEX_READER_TOKENS_FILE', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gitdex-tokens-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  test('a JSON array of {name, token, repositories}; merged with GITDEX_READER_TOKENS', () => {
    const path = file(
      'ok.json',
      JSON.stringify([
        { name: 'alice', token: `${A} with = and ; inside`.replaceAll(' ', '_'), repositories: ['ACME/*'] },
        { name: 'ci', token: B, repositories: [] },
      ]),
    );
    const env = loadEnv({ GITDEX_READER_TOKENS_FILE: path, GITDEX_READER_TOKENS: `bot:${'c'.repeat(16)}=*` });
    expect(env.GITDEX_READER_TOKENS_FILE).toEqual([
      { name: 'alice', token: `${A}_with_=_and_;_inside`, repositories: ['acme/*'] },
      { name: 'ci', token: B, repositories: [] },
    ]);
    expect(env.GITDEX_READER_TOKENS).toHaveLength(1);
  });

  test.each<[string, string, RegExp]>([
    ['missing', '', /cannot read .*missing\.json: ENOENT/],
    ['not-json', '{nope', /not valid JSON/],
    ['not-array', '{"name":"a"}', /the file: .*expected array/i],
    ['no-token', '[{"name":"a","repositories":[]}]', /entry 1\.token: .*expected string/i],
    ['extra', `[{"name":"a","token":"${A}","repositories":[],"admin":true}]`, /entry 1: .*admin/],
    ['bad-pattern', `[{"name":"a","token":"${A}","repositories":["acme/x/y"]}]`, /entry 1 \(a\): repository pattern 1 is not/],
    ['space', `[{"name":"a","token":"has space ${A}","repositories":[]}]`, /entry 1\.token: visible ASCII/],
    ['short', '[{"name":"a","token":"short-one","repositories":[]}]', /a: the token has 9 characters/],
    ['dup', `[{"name":"a","token":"${A}","repositories":[]},{"name":"b","token":"${A}","repositories":[]}]`, /a and b have the same token/],
  ])('%s: refused naming GITDEX_READER_TOKENS_FILE', (name, content, message) => {
    const path = name === 'missing' ? join(dir, 'missing.json') : file(`${name}.json`, content);
    const found = problems({ GITDEX_READER_TOKENS_FILE: path });
    expect(found.map((p) => p.variable)).toContain('GITDEX_READER_TOKENS_FILE');
    expect(found.map((p) => p.message).join('\n')).toMatch(message);
    expect(JSON.stringify(found)).not.toContain(A);
  });

  test('the same name or token in both places is refused', () => {
    const path = file('both.json', JSON.stringify([{ name: 'alice', token: A, repositories: [] }]));
    expect(problems({ GITDEX_READER_TOKENS_FILE: path, GITDEX_READER_TOKENS: `alice:${B}=*` }).map((p) => p.message)).toEqual(['the name alice is used twice (with GITDEX_READER_TOKENS)']);
    expect(problems({ GITDEX_READER_TOKENS_FILE: path, GITDEX_READER_TOKENS: `bob:${A}=*` }).map((p) => p.message)).toEqual(['bob and alice have the same token (with GITDEX_READER_TOKENS)']);
  });

  test('parseReaderTokenFile never quotes a token in its problems', () => {
    const token = 'looks-like-a-token-0123456789';
    for (const json of [`[{"name":"a","token":"${token}","repositories":"acme/*"}]`, `[{"name":"a b","token":"${token}","repositories":[]}]`, `[{"name":"a","token":"${token} ","repositories":[]}]`]) {
      const { problems: found } = parseReaderTokenFile(json);
      expect(found.length).toBeGreaterThan(0);
      expect(found.join('\n')).not.toContain(token);
    }
  });
});

describe('the other reader security settings', () => {
  test('defaults: anonymous callers allowed, 600 requests a minute, no extra hosts', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ GITDEX_REQUIRE_AUTH: false, GITDEX_READER_RATE_LIMIT: 600, GITDEX_ALLOWED_HOSTS: [], GITDEX_READER_TOKENS: [], GITDEX_READER_TOKENS_FILE: [] });
    expect(env.GITDEX_READER_RATE_BURST).toBeUndefined();
  });

  test('values are read and checked', () => {
    expect(
      loadEnv({ GITDEX_REQUIRE_AUTH: 'true', GITDEX_READER_TOKENS: `a:${A}=*`, GITDEX_READER_RATE_LIMIT: '0', GITDEX_READER_RATE_BURST: '20', GITDEX_ALLOWED_HOSTS: 'Code.Example.com, gitdex:8080' }),
    ).toMatchObject({
      GITDEX_REQUIRE_AUTH: true,
      GITDEX_READER_RATE_LIMIT: 0,
      GITDEX_READER_RATE_BURST: 20,
      GITDEX_ALLOWED_HOSTS: ['code.example.com', 'gitdex:8080'],
    });
    expect(problems({ GITDEX_REQUIRE_AUTH: 'true' })).toEqual([{ variable: 'GITDEX_REQUIRE_AUTH', message: expect.stringMatching(/needs reader tokens/) }]);
    expect(problems({ GITDEX_REQUIRE_AUTH: 'maybe' })).toEqual([{ variable: 'GITDEX_REQUIRE_AUTH', message: 'true or false' }]);
    expect(problems({ GITDEX_READER_RATE_LIMIT: '-1' }).map((p) => p.variable)).toEqual(['GITDEX_READER_RATE_LIMIT']);
    expect(problems({ GITDEX_READER_RATE_BURST: '0' }).map((p) => p.variable)).toEqual(['GITDEX_READER_RATE_BURST']);
  });
});
