import type { SymbolKind } from '@gitdex/contracts';
import { OWN_QUERIES } from './queries';

/** One tree-sitter grammar: its wasm, its tags queries and how its nodes map onto symbol kinds. */
export interface Grammar {
  /** Name used in messages and in the cache of loaded grammars. */
  readonly id: string;
  /** Package and file of the prebuilt wasm the grammar's npm package ships. */
  readonly wasm: readonly [pkg: string, file: string];
  /** tags.scm files of grammar packages, concatenated in order (TypeScript extends JavaScript's). */
  readonly tags: readonly string[];
  /** Our own patterns: kinds the packaged tags miss, and the scopes that name containers. */
  readonly own: string;
}

const grammar = (id: string, pkg: string, file: string, tags: readonly string[], own = ''): Grammar => ({ id, wasm: [pkg, file], tags, own });

const GRAMMARS = {
  typescript: grammar('typescript', 'tree-sitter-typescript', 'tree-sitter-typescript.wasm', ['tree-sitter-javascript', 'tree-sitter-typescript'], OWN_QUERIES.typescript),
  tsx: grammar('tsx', 'tree-sitter-typescript', 'tree-sitter-tsx.wasm', ['tree-sitter-javascript', 'tree-sitter-typescript'], OWN_QUERIES.typescript),
  javascript: grammar('javascript', 'tree-sitter-javascript', 'tree-sitter-javascript.wasm', ['tree-sitter-javascript'], OWN_QUERIES.javascript),
  python: grammar('python', 'tree-sitter-python', 'tree-sitter-python.wasm', ['tree-sitter-python'], OWN_QUERIES.python),
  go: grammar('go', 'tree-sitter-go', 'tree-sitter-go.wasm', ['tree-sitter-go'], OWN_QUERIES.go),
  java: grammar('java', 'tree-sitter-java', 'tree-sitter-java.wasm', ['tree-sitter-java'], OWN_QUERIES.java),
  rust: grammar('rust', 'tree-sitter-rust', 'tree-sitter-rust.wasm', ['tree-sitter-rust'], OWN_QUERIES.rust),
  c: grammar('c', 'tree-sitter-c', 'tree-sitter-c.wasm', ['tree-sitter-c'], OWN_QUERIES.c),
  cpp: grammar('cpp', 'tree-sitter-cpp', 'tree-sitter-cpp.wasm', ['tree-sitter-cpp'], OWN_QUERIES.cpp),
  csharp: grammar('csharp', 'tree-sitter-c-sharp', 'tree-sitter-c_sharp.wasm', ['tree-sitter-c-sharp'], OWN_QUERIES.csharp),
  ruby: grammar('ruby', 'tree-sitter-ruby', 'tree-sitter-ruby.wasm', ['tree-sitter-ruby'], OWN_QUERIES.ruby),
  php: grammar('php', 'tree-sitter-php', 'tree-sitter-php.wasm', ['tree-sitter-php'], OWN_QUERIES.php),
} as const satisfies Record<string, Grammar>;

/** The indexer's language names (services/indexer/src/classify/languages.ts) with a grammar. */
const BY_LANGUAGE: Record<string, Grammar> = {
  TypeScript: GRAMMARS.typescript,
  JavaScript: GRAMMARS.javascript,
  Python: GRAMMARS.python,
  Go: GRAMMARS.go,
  Java: GRAMMARS.java,
  Rust: GRAMMARS.rust,
  C: GRAMMARS.c,
  'C++': GRAMMARS.cpp,
  'C#': GRAMMARS.csharp,
  Ruby: GRAMMARS.ruby,
  PHP: GRAMMARS.php,
};

/** Languages extraction parses, by the indexer's names. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.keys(BY_LANGUAGE);

/**
 * The grammar for a blob. The indexer calls .tsx files TypeScript, but their JSX needs the TSX
 * grammar; and it calls .h files C, which C++ headers are as often: the C++ grammar parses C
 * declarations too and also finds the classes and namespaces of a C++ header.
 */
export function grammarFor(language: string | null, path: string): Grammar | null {
  if (language === null) return null;
  const lower = path.toLowerCase();
  if (language === 'TypeScript' && lower.endsWith('.tsx')) return GRAMMARS.tsx;
  if (language === 'C' && lower.endsWith('.h')) return GRAMMARS.cpp;
  return BY_LANGUAGE[language] ?? null;
}

/** Kinds by definition node type, where the tags query lumps several kinds under one capture. */
export const KIND_BY_NODE: Readonly<Record<string, SymbolKind>> = {
  struct_item: 'struct',
  union_item: 'struct',
  enum_item: 'enum',
  type_item: 'type',
  trait_item: 'trait',
  struct_specifier: 'struct',
  union_specifier: 'struct',
  enum_specifier: 'enum',
  type_definition: 'type',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
  struct_declaration: 'struct',
};

/** Kinds by the tags capture `@definition.<suffix>`. */
export const KIND_BY_CAPTURE: Readonly<Record<string, SymbolKind>> = {
  function: 'function',
  method: 'method',
  class: 'class',
  interface: 'interface',
  module: 'module',
  namespace: 'module',
  macro: 'macro',
  constant: 'constant',
  type: 'type',
  enum: 'enum',
  struct: 'struct',
  trait: 'trait',
  field: 'field',
  property: 'property',
  variable: 'variable',
};
