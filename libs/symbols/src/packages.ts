import { dirname } from 'node:path';

/**
 * The folder of each grammar package (its .wasm and queries/tags.scm), by literal requests so
 * that bundlers and test/unit/workspace-dependencies.test.ts see what the library needs.
 */
const PACKAGE_JSON: Readonly<Record<string, () => string>> = {
  'tree-sitter-c': () => require.resolve('tree-sitter-c/package.json'),
  'tree-sitter-c-sharp': () => require.resolve('tree-sitter-c-sharp/package.json'),
  'tree-sitter-cpp': () => require.resolve('tree-sitter-cpp/package.json'),
  'tree-sitter-go': () => require.resolve('tree-sitter-go/package.json'),
  'tree-sitter-java': () => require.resolve('tree-sitter-java/package.json'),
  'tree-sitter-javascript': () => require.resolve('tree-sitter-javascript/package.json'),
  'tree-sitter-php': () => require.resolve('tree-sitter-php/package.json'),
  'tree-sitter-python': () => require.resolve('tree-sitter-python/package.json'),
  'tree-sitter-ruby': () => require.resolve('tree-sitter-ruby/package.json'),
  'tree-sitter-rust': () => require.resolve('tree-sitter-rust/package.json'),
  'tree-sitter-typescript': () => require.resolve('tree-sitter-typescript/package.json'),
};

export function packageDir(pkg: string): string {
  const resolve = PACKAGE_JSON[pkg];
  if (!resolve) throw new Error(`@gitdex/symbols: no grammar package ${pkg} is declared in src/packages.ts`);
  return dirname(resolve());
}
