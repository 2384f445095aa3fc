import type { FileFlags, SymbolDefinition } from '@gitdex/contracts';
import { closestNames } from '../../src/symbols/did-you-mean';
import { parseSymbolName } from '../../src/symbols/name-query';
import { countNodes, nestOutline } from '../../src/symbols/outline';
import { pathScope } from '../../src/symbols/path-scope';
import { rankHits } from '../../src/symbols/rank';
import { referenceLines } from '../../src/symbols/reference-lines';

const def = (name: string, line: number, endLine: number, container: string | null = null, kind: SymbolDefinition['kind'] = 'function'): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine,
  container,
  signature: `${kind} ${name}`,
});

describe('find_symbol names', () => {
  test('an exact name, a member of a container in any language spelling, or a * pattern', () => {
    expect(parseSymbolName('IndexStore')).toEqual({ match: 'exact', name: 'IndexStore' });
    expect(parseSymbolName('IndexStore.flipGeneration')).toEqual({ match: 'exact', name: 'flipGeneration', container: 'IndexStore' });
    expect(parseSymbolName('std::vector::push_back')).toEqual({ match: 'exact', name: 'push_back', container: 'std.vector' });
    expect(parseSymbolName('Store#flip')).toEqual({ match: 'exact', name: 'flip', container: 'Store' });
    expect(parseSymbolName('flip*')).toEqual({ match: 'pattern', pattern: 'flip*' });
    expect(() => parseSymbolName('**')).toThrow(/at least one character besides \*/);
  });

  test('a control character is refused, naming it: no symbol name holds one', () => {
    expect(() => parseSymbolName('a\u0000b')).toThrow(/control character U\+0000/);
    expect(() => parseSymbolName('flip\u007f*')).toThrow(/control character U\+007F/);
    expect(() => parseSymbolName('Store.\u001bflip')).toThrow(/control character U\+001B/);
    // Surrounding whitespace (tabs, newlines) is trimmed first, as for every name.
    expect(parseSymbolName('\tflip\n')).toEqual({ match: 'exact', name: 'flip' });
  });

  test("a C++ operator keeps its own * and :: and is read in the extractor's spelling", () => {
    expect(parseSymbolName('String::operator std::string')).toEqual({ match: 'exact', name: 'operator std::string', container: 'String' });
    expect(parseSymbolName('Matrix.operator*')).toEqual({ match: 'exact', name: 'operator*', container: 'Matrix' });
    expect(parseSymbolName('operator ==')).toEqual({ match: 'exact', name: 'operator==' });
    expect(parseSymbolName('ns::Ptr::operator->*')).toEqual({ match: 'exact', name: 'operator->*', container: 'ns.Ptr' });
    expect(parseSymbolName('Env::operator  napi_env')).toEqual({ match: 'exact', name: 'operator napi_env', container: 'Env' });
    // Not operators: a module named operator, a name that only starts with the word, a pattern.
    expect(parseSymbolName('operator.itemgetter')).toEqual({ match: 'exact', name: 'itemgetter', container: 'operator' });
    expect(parseSymbolName('operatorFor')).toEqual({ match: 'exact', name: 'operatorFor' });
    expect(parseSymbolName('operat*')).toEqual({ match: 'pattern', pattern: 'operat*' });
  });
});

describe('ranking definitions', () => {
  const hit = (path: string, definition: SymbolDefinition, flags: Partial<FileFlags> = {}) => ({
    repository: 'octo/api',
    path,
    flags: { binary: false, vendored: false, generated: false, tooLarge: false, ...flags },
    definition,
  });
  test('exact case, then source before tests before vendored, then outer before nested, then fewer folders', () => {
    const ranked = rankHits(
      [
        hit('vendor/lib/store.ts', def('Store', 1, 9), { vendored: true }),
        hit('test/store.test.ts', def('Store', 1, 9)),
        hit('src/deep/er/store.ts', def('Store', 1, 9)),
        hit('src/store.ts', def('Store', 3, 4, 'Outer')),
        hit('src/store.ts', def('store', 1, 9)),
        hit('src/other.ts', def('Store', 1, 9)),
      ],
      'Store',
    );
    expect(ranked.map((h) => `${h.path}:${h.definition.name}:${h.definition.container ?? ''}`)).toEqual([
      'src/other.ts:Store:',
      'src/deep/er/store.ts:Store:',
      'src/store.ts:Store:Outer',
      'test/store.test.ts:Store:',
      'vendor/lib/store.ts:Store:',
      'src/store.ts:store:',
    ]);
  });
});

describe('file outlines', () => {
  test('definitions nest by the lines that hold them, in file order; same-range and out-of-line ones stay siblings', () => {
    const tree = nestOutline([
      def('A', 1, 20, null, 'class'),
      def('m1', 2, 5, 'A', 'method'),
      def('inner', 3, 4, 'A.m1'),
      def('m2', 6, 19, 'A', 'method'),
      def('B', 22, 22, null, 'type'),
      def('C', 22, 22, null, 'constant'),
      def('(A) goMethod', 24, 30, 'A', 'method'),
    ]);
    const shape = (nodes: ReturnType<typeof nestOutline>): unknown => nodes.map((n) => (n.children.length > 0 ? { [n.name]: shape(n.children) } : n.name));
    expect(shape(tree)).toEqual([{ A: [{ m1: ['inner'] }, 'm2'] }, 'B', 'C', '(A) goMethod']);
    expect(countNodes(tree)).toBe(7);
    expect(tree[0]).toMatchObject({ kind: 'class', line: 1, end_line: 20, signature: 'class A' });
  });
});

describe('did you mean', () => {
  test('the same name in another case first, then fewer edits, then names that contain it; far names are not offered', () => {
    expect(closestNames('flipgeneration', ['flipGeneration', 'flipGenerations', 'flopGeneration', 'unrelatedThing'])).toEqual(['flipGeneration', 'flipGenerations', 'flopGeneration']);
    expect(closestNames('Stor', ['Store', 'StoreReads', 'Stack'])).toEqual(['Store', 'StoreReads']);
  });
});

describe('path scope', () => {
  test('the index filters on the folders every glob shares; the globs are checked here', () => {
    expect(pathScope(undefined)).toEqual({ prefix: undefined, matches: null });
    const src = pathScope('src/**/*.ts');
    expect(src.prefix).toBe('src/');
    expect(src.matches?.('src/a/b.ts')).toBe(true);
    expect(src.matches?.('src/a/b.js')).toBe(false);
    expect(pathScope(['src/a/*.ts', 'src/a/**/*.go']).prefix).toBe('src/a/');
    expect(pathScope(['src/*.ts', 'lib/*.ts']).prefix).toBeUndefined();
    expect(pathScope('*.go').prefix).toBeUndefined();
    expect(pathScope('libs/ports/src/index.ts').prefix).toBe('libs/ports/src/');
  });
});

describe('reference lines', () => {
  test('one line per line with occurrences, each range with its role, ranges past a cut line dropped', () => {
    const content = `import { flip } from './flip';\nflip(); flip();\n${'x'.repeat(400)} flip\n`;
    const lines = referenceLines(
      content,
      [
        { name: 'flip', line: 1, start: 9, end: 13, role: 'import' },
        { name: 'flip', line: 2, start: 8, end: 12, role: 'reference' },
        { name: 'flip', line: 2, start: 0, end: 4, role: 'reference' },
        { name: 'flip', line: 3, start: 401, end: 405, role: 'reference' },
      ],
      10,
    );
    expect(lines[0]).toEqual({ line: 1, text: "import { flip } from './flip';", ranges: [[9, 13]], roles: ['import'] });
    expect(lines[1]).toEqual({
      line: 2,
      text: 'flip(); flip();',
      ranges: [
        [0, 4],
        [8, 12],
      ],
      roles: ['reference', 'reference'],
    });
    expect(lines[2]).toMatchObject({ line: 3, ranges: [], roles: [] });
    expect(
      referenceLines(
        content,
        [
          { name: 'flip', line: 2, start: 0, end: 4, role: 'reference' },
          { name: 'flip', line: 1, start: 9, end: 13, role: 'import' },
        ],
        1,
      ),
    ).toHaveLength(1);
  });
});
