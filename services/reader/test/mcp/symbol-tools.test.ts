import type { FileOutlineOutput, FindReferencesOutput, FindSymbolOutput } from '@gitdex/contracts';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { scopedAccess } from '../../src/access';
import { createReaderApp } from '../../src/app';
import { seedRepository, type FileSpec } from '../support/documents';
import { call, connectInMemory, failed, ok, textOf } from '../support/mcp-client';
import { code, def, occurrencesIn, SYMBOL_FILES } from '../support/symbol-files';
import { createWorld, type World } from '../support/world';

// find_symbol, file_outline and find_references through the MCP SDK client on the real SQLite
// adapter, with symbols seeded as extraction hands them over.

const PRIVATE_TS = 'export class IndexStore {}\nexport function SecretThing() {}\n';
const OWNER_OF_HIDDEN = { id: 'hidden-reader', repositories: ['octo/hidden'] };

let world: World;
beforeAll(async () => {
  // Private repositories readable through the caller's patterns, as the server is configured with tokens.
  world = await createWorld('sqlite', { access: scopedAccess });
  await seedRepository(world.index, { id: 10, fullName: 'octo/sym', files: SYMBOL_FILES });
  await seedRepository(world.index, {
    id: 11,
    fullName: 'octo/hidden',
    private: true,
    files: {
      'lib/hidden.ts': code(
        PRIVATE_TS,
        [def('IndexStore', 'class', 1, 1), def('SecretThing', 'function', 2, 2)],
        occurrencesIn(PRIVATE_TS, 'IndexStore', () => 'definition'),
      ),
    },
  });
});

const where = (s: { repository: string; path: string; line: number }) => `${s.repository} ${s.path}:${s.line}`;

describe('find_symbol', () => {
  test('definitions by exact name, best first (source before tests, then fewer folders), with lines, signature and a GitHub URL with line anchors', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const answer = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'IndexStore' }));
    expect(answer.symbols.map(where)).toEqual(['octo/sym src/store.ts:3', 'octo/sym test/store.test.ts:3']);
    expect(answer.symbols[0]).toMatchObject({ kind: 'class', container: null, line: 3, end_line: 12, ref: 'refs/heads/main', language: 'TypeScript' });
    expect(answer.symbols[0]!.url).toMatch(/^https:\/\/github\.com\/octo\/sym\/blob\/[0-9a-f]{40}\/src\/store\.ts#L3-L12$/);
    expect(answer.did_you_mean).toEqual([]);

    const member = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'IndexStore.flipGeneration', repository: 'octo/sym' }));
    expect(member.symbols).toEqual([
      expect.objectContaining({ name: 'flipGeneration', container: 'IndexStore', kind: 'method', line: 4, end_line: 7, signature: 'flipGeneration(n: number): number' }),
    ]);
    const pattern = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'flip*', repository: 'octo/sym', kind: 'method' }));
    expect(pattern.symbols.map((s) => s.name)).toEqual(['flipGeneration']);
    const globbed = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'IndexStore', path: 'test/**' }));
    expect(globbed.symbols.map(where)).toEqual(['octo/sym test/store.test.ts:3']);
    await close();
  });

  test('nothing found: "did you mean" over symbol names, never over a repository the caller may not read', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const typo = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'flipGeneraton' }));
    expect(typo.symbols).toEqual([]);
    expect(typo.did_you_mean[0]).toBe('flipGeneration');
    expect(textOf(await call(client, 'find_symbol', { name: 'flipGeneraton' }))).toMatch(/Did you mean: flipGeneration/);
    const secret = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'SecretThin' }));
    expect(secret.did_you_mean).not.toContain('SecretThing');
    expect(JSON.stringify(secret)).not.toMatch(/hidden/i);
    await close();
  });

  test("a private repository's symbols only for a caller who may read it; otherwise it is a repository that does not exist", async () => {
    const anonymous = await connectInMemory(world.deps);
    const reader = await connectInMemory(world.deps, OWNER_OF_HIDDEN);
    expect(ok<FindSymbolOutput>(await call(anonymous.client, 'find_symbol', { name: 'SecretThing' })).total).toBe(0);
    expect(ok<FindSymbolOutput>(await call(reader.client, 'find_symbol', { name: 'SecretThing' })).symbols.map(where)).toEqual(['octo/hidden lib/hidden.ts:2']);
    const hidden = failed(await call(anonymous.client, 'find_symbol', { name: 'SecretThing', repository: 'octo/hidden' }));
    const ghost = failed(await call(anonymous.client, 'find_symbol', { name: 'SecretThing', repository: 'octo/hidxen' }));
    expect({ code: hidden.code, text: hidden.text.replaceAll('hidden', 'hidxen') }).toEqual({ code: ghost.code, text: ghost.text });
    await anonymous.close();
    await reader.close();
  });

  test('pages with a cursor tied to its arguments', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const first = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'IndexStore', repository: 'octo/sym', limit: 1 }));
    expect(first.symbols.map(where)).toEqual(['octo/sym src/store.ts:3']);
    const second = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'IndexStore', repository: 'octo/sym', limit: 1, cursor: first.next_cursor }));
    expect({ shown: second.symbols.map(where), next: second.next_cursor, offset: second.offset }).toEqual({ shown: ['octo/sym test/store.test.ts:3'], next: null, offset: 1 });
    expect(failed(await call(client, 'find_symbol', { name: 'open', repository: 'octo/sym', cursor: first.next_cursor })).text).toMatch(/cursor: it continues a call with other arguments/);
    await close();
  });
});

describe('find_symbol over many definitions', () => {
  // Twelve files across tiers, nestings and folders define `widget`: the exact name is ranked by the index
  // (rankedSymbols, a page at a time), a pattern by the reader over every definition. Both must agree.
  const PATHS = ['src/a.ts', 'src/deep/b.ts', 'test/c.ts', 'src/d.test.ts', 'vendor/e.ts', 'f.ts', 'src/g/h/i.ts', 'lib/j.ts', 'spec/k.ts', 'src/l.ts', 'm.ts', 'src/n.ts'];
  beforeAll(async () => {
    const files = Object.fromEntries(
      PATHS.map((path, i) => {
        const text = `export class Box${i} {\n  widget() {}\n}\nexport function widget() {}\n`;
        const definitions = i % 3 === 0 ? [def('widget', 'method', 2, 2, `Box${i}`)] : [def('widget', 'method', 2, 2, `Box${i}`), def('widget', 'function', 4, 4)];
        const spec = code(text, definitions, []) as Exclude<FileSpec, string>;
        return [path, path.startsWith('vendor/') ? { ...spec, flags: { vendored: true } } : spec];
      }),
    );
    await seedRepository(world.index, { id: 12, fullName: 'octo/many', files });
  });

  test('every page of an exact name is the ranking of all its definitions, with the same total', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const everything = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'widge*', repository: 'octo/many', limit: 100 }));
    const pages: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = ok<FindSymbolOutput>(await call(client, 'find_symbol', { name: 'widget', repository: 'octo/many', limit: 5, ...(cursor ? { cursor } : {}) }));
      expect(page.total).toBe(everything.total);
      pages.push(...page.symbols.map(where));
      cursor = page.next_cursor;
    } while (cursor);
    expect(everything.total).toBe(20);
    expect(pages).toEqual(everything.symbols.map(where));
    expect(pages.slice(0, 3)).toEqual(['octo/many f.ts:4', 'octo/many m.ts:4', 'octo/many lib/j.ts:4']);
    await close();
  });
});

describe('file_outline', () => {
  test("a file's definitions nested in file order; a file without stored symbols says so; a wrong path says what was meant", async () => {
    const { client, close } = await connectInMemory(world.deps);
    const outline = ok<FileOutlineOutput>(await call(client, 'file_outline', { repository: 'octo/sym', path: 'src/store.ts' }));
    expect(outline).toMatchObject({ status: 'parsed', symbol_count: 4, language: 'TypeScript' });
    expect(outline.symbols.map((n) => [n.name, n.line, n.end_line, n.children.map((c) => c.name)])).toEqual([
      ['IndexStore', 3, 12, ['flipGeneration', 'open']],
      ['label', 14, 14, []],
    ]);
    expect(textOf(await call(client, 'file_outline', { repository: 'octo/sym', path: 'https://github.com/octo/sym/blob/main/src/store.ts' }))).toMatch(
      /\n {2}4-7 method flipGeneration: flipGeneration\(n: number\): number/,
    );
    expect(ok<FileOutlineOutput>(await call(client, 'file_outline', { repository: 'octo/api', path: 'src/index.ts' }))).toMatchObject({ status: 'not_extracted', symbols: [], symbol_count: 0 });
    const missing = failed(await call(client, 'file_outline', { repository: 'octo/sym', path: 'src/stor.ts' }));
    expect(missing).toMatchObject({ code: 'NOT_FOUND', suggestions: expect.arrayContaining(['src/store.ts']) });
    expect(failed(await call(client, 'file_outline', { repository: 'octo/sym', path: 'src' })).text).toMatch(/is a folder/);
    await close();
  });

  test("reads the outline without the file's content, with the lookups once they know the repository", async () => {
    const { client, close } = await connectInMemory(world.deps);
    const lookups = jest.spyOn(world.index, 'lookupForRead');
    const files = jest.spyOn(world.index, 'getFile');
    const outlines = jest.spyOn(world.index, 'fileSymbols');
    try {
      // The second call is made with what the first taught the reader (its one-round-trip lookup).
      const answers = [];
      for (let i = 0; i < 2; i += 1) answers.push(ok<FileOutlineOutput>(await call(client, 'file_outline', { repository: 'octo/sym', path: 'src/store.ts' })));
      expect(answers[1]).toEqual(answers[0]);
      expect(lookups.mock.calls.filter(([request]) => request.versions !== undefined)).toEqual([]);
      // Each outline the lookups brought is one fileSymbols does not read again.
      const ahead = lookups.mock.calls.filter(([request]) => request.outlines?.path === 'src/store.ts').length;
      expect(ahead).toBeGreaterThanOrEqual(1);
      expect(outlines).toHaveBeenCalledTimes(2 - ahead);
      expect(files).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
      files.mockRestore();
      outlines.mockRestore();
      await close();
    }
  });
});

describe('file_outline of a very long file', () => {
  test('keeps within the answer budget: the first definitions in file order, how many were left out, and where to read on', async () => {
    const lines = Array.from({ length: 6_000 }, (_, i) => `export function generated${i}(value: number): number { return value + ${i}; }`);
    const definitions = lines.map((text, i) => def(`generated${i}`, 'function', i + 1, i + 1, null, text));
    await seedRepository(world.index, { id: 12, fullName: 'octo/generated', files: { 'src/all.ts': code(`${lines.join('\n')}\n`, definitions, []) } });
    const { client, close } = await connectInMemory(world.deps);
    const result = await call(client, 'file_outline', { repository: 'octo/generated', path: 'src/all.ts' });
    const outline = ok<FileOutlineOutput>(result);
    expect(outline.symbol_count).toBe(6_000);
    expect(outline.omitted).toBeGreaterThan(0);
    expect(outline.symbols).toHaveLength(6_000 - outline.omitted);
    expect(outline.symbols.map((n) => n.line)).toEqual(Array.from({ length: outline.symbols.length }, (_, i) => i + 1));
    expect(JSON.stringify(outline).length + textOf(result).length).toBeLessThanOrEqual(world.deps.limits.maxResultChars);
    expect(textOf(result)).toMatch(
      new RegExp(
        `\\[${outline.omitted.toLocaleString('en-US')} more definitions after line ${outline.symbols.length} left out to fit the answer: read_file from line ${outline.symbols.length + 1} reads on\\]`,
      ),
    );
    await close();
  });
});

describe('find_references', () => {
  test('occurrences in code grouped by file, each marked, with the definitions the name may mean; comments and strings are left out', async () => {
    const { client, close } = await connectInMemory(world.deps);
    const answer = ok<FindReferencesOutput>(await call(client, 'find_references', { name: 'flipGeneration', repository: 'octo/sym' }));
    expect(answer.definitions.map(where)).toEqual(['octo/sym src/store.ts:4']);
    expect(answer.files.map((f) => [f.path, f.matches.map((m) => [m.line, m.roles])])).toEqual([
      ['src/store.ts', [[4, ['definition']]]],
      ['src/app/use.ts', [[5, ['reference']]]],
      ['test/store.test.ts', [[4, ['reference']]]],
    ]);
    expect(answer.files[1]!.matches[0]).toEqual({ line: 5, text: '  store.flipGeneration(1);', ranges: [[8, 22]], roles: ['reference'] });
    expect({ files: answer.total_files, occurrences: answer.total_occurrences }).toEqual({ files: 3, occurrences: 3 });
    expect(textOf(await call(client, 'find_references', { name: 'flipGeneration', repository: 'octo/sym' }))).toMatch(/search-based/);
    const imports = ok<FindReferencesOutput>(await call(client, 'find_references', { name: 'IndexStore', path: 'src/app/**' }));
    expect(imports.files.map((f) => f.matches.map((m) => m.roles[0]))).toEqual([['import', 'reference']]);
    expect(failed(await call(client, 'find_references', { name: 'a.b' })).text).toMatch(/not one identifier/);
    await close();
  });
});

describe('REST mirrors', () => {
  test('/v1/symbols, /v1/repositories/{owner}/{repo}/outline/{path} and /v1/references answer as the tools do', async () => {
    const app = createReaderApp(world.deps, { registry: new Registry() });
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async <T>(path: string) => {
      const response = await fetch(`${base}${path}`);
      return { status: response.status, body: (await response.json()) as T };
    };
    try {
      const symbols = await get<FindSymbolOutput>('/v1/symbols?q=IndexStore&path=src/**&repositories=octo/sym,octo/api');
      expect({ status: symbols.status, found: symbols.body.symbols.map(where) }).toEqual({ status: 200, found: ['octo/sym src/store.ts:3'] });
      const outline = await get<FileOutlineOutput>('/v1/repositories/octo/sym/outline/src/store.ts');
      expect({ status: outline.status, count: outline.body.symbol_count }).toEqual({ status: 200, count: 4 });
      const references = await get<FindReferencesOutput>('/v1/references?name=flipGeneration&repository=octo/sym&limit=1');
      expect({ status: references.status, files: references.body.files.map((f) => f.path), more: references.body.next_cursor !== null }).toEqual({ status: 200, files: ['src/store.ts'], more: true });
      const wrong = await get<{ error: { code: string; message: string } }>('/v1/symbols?q=x&kind=gadget');
      expect({ status: wrong.status, code: wrong.body.error.code }).toEqual({ status: 400, code: 'INVALID_ARGUMENT' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
