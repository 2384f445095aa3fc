import type { FileDocument } from '@gitdex/contracts';

type Category = FileDocument['category'];

/** Language and category by extension, in the spirit of GitHub linguist (a practical subset). */
const BY_EXTENSION: Record<string, [string, Category]> = {
  ts: ['TypeScript', 'code'], tsx: ['TypeScript', 'code'], mts: ['TypeScript', 'code'], cts: ['TypeScript', 'code'],
  js: ['JavaScript', 'code'], jsx: ['JavaScript', 'code'], mjs: ['JavaScript', 'code'], cjs: ['JavaScript', 'code'],
  py: ['Python', 'code'], pyi: ['Python', 'code'], rb: ['Ruby', 'code'], go: ['Go', 'code'], rs: ['Rust', 'code'],
  java: ['Java', 'code'], kt: ['Kotlin', 'code'], kts: ['Kotlin', 'code'], scala: ['Scala', 'code'], groovy: ['Groovy', 'code'],
  c: ['C', 'code'], h: ['C', 'code'], cc: ['C++', 'code'], cpp: ['C++', 'code'], cxx: ['C++', 'code'], hpp: ['C++', 'code'], hh: ['C++', 'code'],
  cs: ['C#', 'code'], fs: ['F#', 'code'], swift: ['Swift', 'code'], m: ['Objective-C', 'code'], mm: ['Objective-C++', 'code'],
  php: ['PHP', 'code'], pl: ['Perl', 'code'], pm: ['Perl', 'code'], lua: ['Lua', 'code'], r: ['R', 'code'], jl: ['Julia', 'code'],
  dart: ['Dart', 'code'], ex: ['Elixir', 'code'], exs: ['Elixir', 'code'], erl: ['Erlang', 'code'], hs: ['Haskell', 'code'],
  ml: ['OCaml', 'code'], mli: ['OCaml', 'code'], clj: ['Clojure', 'code'], zig: ['Zig', 'code'], nim: ['Nim', 'code'],
  sh: ['Shell', 'code'], bash: ['Shell', 'code'], zsh: ['Shell', 'code'], fish: ['Shell', 'code'], ps1: ['PowerShell', 'code'],
  sql: ['SQL', 'code'], vue: ['Vue', 'code'], svelte: ['Svelte', 'code'], html: ['HTML', 'code'], htm: ['HTML', 'code'],
  css: ['CSS', 'code'], scss: ['SCSS', 'code'], sass: ['Sass', 'code'], less: ['Less', 'code'], proto: ['Protocol Buffer', 'code'],
  graphql: ['GraphQL', 'code'], gql: ['GraphQL', 'code'], tf: ['HCL', 'code'], hcl: ['HCL', 'code'], sol: ['Solidity', 'code'],
  md: ['Markdown', 'documentation'], markdown: ['Markdown', 'documentation'], mdx: ['MDX', 'documentation'],
  rst: ['reStructuredText', 'documentation'], adoc: ['AsciiDoc', 'documentation'], txt: ['Text', 'documentation'], tex: ['TeX', 'documentation'],
  json: ['JSON', 'data'], jsonc: ['JSON', 'data'], yaml: ['YAML', 'data'], yml: ['YAML', 'data'], toml: ['TOML', 'data'],
  xml: ['XML', 'data'], csv: ['CSV', 'data'], tsv: ['TSV', 'data'], ini: ['INI', 'data'], lock: ['Lockfile', 'data'],
};

const BY_NAME: Record<string, [string, Category]> = {
  dockerfile: ['Dockerfile', 'code'], makefile: ['Makefile', 'code'], gnumakefile: ['Makefile', 'code'], rakefile: ['Ruby', 'code'],
  gemfile: ['Ruby', 'code'], jenkinsfile: ['Groovy', 'code'], 'cmakelists.txt': ['CMake', 'code'],
  license: ['Text', 'documentation'], 'license.txt': ['Text', 'documentation'], copying: ['Text', 'documentation'],
  readme: ['Text', 'documentation'], changelog: ['Text', 'documentation'], authors: ['Text', 'documentation'], notice: ['Text', 'documentation'],
};

export function languageOf(name: string, extension: string): { language: string | null; category: Category } {
  const lower = name.toLowerCase();
  const hit = BY_NAME[lower] ?? BY_EXTENSION[extension];
  if (hit) return { language: hit[0], category: hit[1] };
  if (lower.startsWith('readme') || lower.startsWith('changelog') || lower.startsWith('contributing')) return { language: null, category: 'documentation' };
  return { language: null, category: 'other' };
}
