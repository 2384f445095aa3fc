import type { BlobSymbols, SymbolDefinition, SymbolOccurrence } from '@gitdex/contracts';
import type { FileSpec } from './documents';

// Code files with their symbols written out as extraction hands them to storage: the reader's
// tests judge the tools, not a grammar. Every occurrence's line and columns are those of the content.

export const def = (name: string, kind: SymbolDefinition['kind'], line: number, endLine: number, container: string | null = null, signature = `${kind} ${name}`): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine,
  container,
  signature,
});

/** Occurrences of `name` in `content`, found as whole words outside `//` comments and quotes, with the role the caller gives each line. */
export function occurrencesIn(content: string, name: string, roleOfLine: (line: number) => SymbolOccurrence['role'] = () => 'reference'): SymbolOccurrence[] {
  const out: SymbolOccurrence[] = [];
  content.split('\n').forEach((text, i) => {
    const code = text.replace(/\/\/.*$/, '').replace(/'[^']*'|"[^"]*"/g, (s) => ' '.repeat(s.length));
    const re = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
    for (let m = re.exec(code); m; m = re.exec(code)) out.push({ name, line: i + 1, start: m.index, end: m.index + name.length, role: roleOfLine(i + 1) });
  });
  return out;
}

export function code(content: string, definitions: SymbolDefinition[], occurrences: SymbolOccurrence[], language = 'TypeScript'): FileSpec {
  const symbols: BlobSymbols = { extractor: 1, language, status: 'parsed', definitions, occurrences: [...occurrences].sort((a, b) => a.line - b.line || a.start - b.start) };
  return { content, symbols };
}

const STORE_TS = [
  "import { flip } from './flip';", // 1
  '', // 2
  'export class IndexStore {', // 3
  '  flipGeneration(n: number): number {', // 4
  '    // flipGeneration is called by the writer', // 5
  '    return flip(n);', // 6
  '  }', // 7
  '', // 8
  '  static open(): IndexStore {', // 9
  '    return new IndexStore();', // 10
  '  }', // 11
  '}', // 12
  '', // 13
  "export const label = 'flipGeneration';", // 14
  '',
].join('\n');

const USE_TS = ["import { IndexStore } from '../store';", '', 'export function main(): void {', '  const store = IndexStore.open();', '  store.flipGeneration(1);', '}', ''].join('\n');

const TEST_TS = ["import { IndexStore } from '../src/store';", '', 'export class IndexStore {}', "test('x', () => new IndexStore().flipGeneration(2));", ''].join('\n');

/** A small repository with symbols: a class with methods, a user of it in a folder, a test that redefines the class. */
export const SYMBOL_FILES: Record<string, FileSpec> = {
  'src/store.ts': code(
    STORE_TS,
    [
      def('IndexStore', 'class', 3, 12),
      def('flipGeneration', 'method', 4, 7, 'IndexStore', 'flipGeneration(n: number): number'),
      def('open', 'method', 9, 11, 'IndexStore'),
      def('label', 'constant', 14, 14),
    ],
    [
      ...occurrencesIn(STORE_TS, 'flipGeneration', (l) => (l === 4 ? 'definition' : 'reference')),
      ...occurrencesIn(STORE_TS, 'IndexStore', (l) => (l === 3 ? 'definition' : 'reference')),
      ...occurrencesIn(STORE_TS, 'flip', (l) => (l === 1 ? 'import' : 'reference')),
    ],
  ),
  'src/app/use.ts': code(
    USE_TS,
    [def('main', 'function', 3, 6)],
    [...occurrencesIn(USE_TS, 'IndexStore', (l) => (l === 1 ? 'import' : 'reference')), ...occurrencesIn(USE_TS, 'flipGeneration'), ...occurrencesIn(USE_TS, 'main', () => 'definition')],
  ),
  'test/store.test.ts': code(
    TEST_TS,
    [def('IndexStore', 'class', 3, 3)],
    [...occurrencesIn(TEST_TS, 'IndexStore', (l) => (l === 1 ? 'import' : l === 3 ? 'definition' : 'reference')), ...occurrencesIn(TEST_TS, 'flipGeneration')],
  ),
  'src/indexstore.ts': code('export const indexstore = 1;\n', [def('indexstore', 'constant', 1, 1)], [{ name: 'indexstore', line: 1, start: 13, end: 23, role: 'definition' }]),
  'README.md': '# Symbols\n\nIndexStore is documented here.\n',
};
