// Namespaces whose tokens tree-sitter leaves loose in an ERROR node (braces that preprocessor
// branches split), checked against what universal-ctags reports for the same code, and the
// bounds that keep an error storm of them linear.
import { extractSymbols } from '../src';
import { firstBranchBraces } from '../src/first-branch-braces';

const lines = (...rows: string[]) => rows.join('\n') + '\n';
const outline = async (code: string, path = 'src/napi.h') => {
  const symbols = await extractSymbols(code, path, 'C++', undefined, 'none');
  expect(symbols.status).toBe('parsed');
  return symbols.definitions.map((d) => [d.name, d.kind, d.container, d.line, d.endLine]);
};

describe('namespaces loose in an error node', () => {
  it('gives the definitions inside a namespace opened in an #ifdef branch their containers, as ctags does', async () => {
    // The include guard holds an unbalanced `namespace … {` in an #ifdef, and a body whose braces
    // an #if splits: the whole file parses as one ERROR node with both namespaces' tokens loose.
    const code = lines(
      '#ifndef SRC_NAPI_H_',
      '#define SRC_NAPI_H_',
      'namespace Napi {',
      '',
      '#ifdef NAPI_CPP_CUSTOM_NAMESPACE',
      'namespace NAPI_CPP_CUSTOM_NAMESPACE {',
      '#endif',
      '',
      'class Env {',
      ' public:',
      '  void Reset();',
      '};',
      '',
      'inline void Env::Open() {',
      '#if USE_MMAP',
      '  if (mapped_) {',
      '#else',
      '  if (file_) {',
      '#endif',
      '    Load("}");  // }',
      '  }',
      '}',
      '',
      'inline void Env::Reset() {',
      "  env_ = '{';",
      '}',
      '',
      '#ifdef NAPI_CPP_CUSTOM_NAMESPACE',
      '}  // namespace NAPI_CPP_CUSTOM_NAMESPACE',
      '#endif',
      '',
      '}  // namespace Napi',
      '',
      'void After() {}',
      '#endif  // SRC_NAPI_H_',
    );
    // ctags: Napi 3-32, NAPI_CPP_CUSTOM_NAMESPACE 6-29 in Napi, Env and its methods in both, After outside.
    // Open's body is the one the first #if branch closes: ctags ends it on line 22.
    expect(await outline(code)).toEqual([
      ['Napi', 'module', null, 3, 32],
      ['NAPI_CPP_CUSTOM_NAMESPACE', 'module', 'Napi', 6, 29],
      ['Env', 'class', 'Napi.NAPI_CPP_CUSTOM_NAMESPACE', 9, 12],
      ['Open', 'method', 'Napi.NAPI_CPP_CUSTOM_NAMESPACE.Env', 14, 22],
      ['Reset', 'method', 'Napi.NAPI_CPP_CUSTOM_NAMESPACE.Env', 24, 26],
      ['After', 'function', null, 34, 34],
    ]);
  });

  it('ends a class or function the parser ran past at the brace pairing with its own in first branches', async () => {
    const code = lines(
      'namespace io {',
      '#if IO_VERSION > 5',
      'class Buffer : public Object {',
      '#else',
      'class Buffer : public Value {',
      '#endif',
      ' public:',
      '  size_t Length();',
      '};',
      '',
      'void Open() {',
      '#if USE_MMAP',
      '  if (mapped_) {',
      '#else',
      '  if (file_) {',
      '#endif',
      '    Load();',
      '  }',
      '}',
      '',
      'class Reader : public Base {',
      ' public:',
      '  int Size() const { return size_; }',
      '};',
      '}  // namespace io',
    );
    // ctags: Buffer 3-9, Open 11-19, Reader 21-24 with Size, all in io (and not the #else Buffer).
    expect(await outline(code, 'src/io.h')).toEqual([
      ['io', 'module', null, 1, 25],
      ['Buffer', 'class', 'io', 3, 9],
      ['Buffer', 'class', 'io.Buffer', 5, 9],
      ['Open', 'function', 'io', 11, 19],
      ['Reader', 'class', 'io', 21, 24],
      ['Size', 'method', 'io.Reader', 23, 23],
    ]);
  });

  it('recovers a struct loose in an error node, with the container its qualified name gives', async () => {
    const code = lines(
      'namespace io {',
      '#if IO_VERSION > 5',
      'struct Buffer::Impl final : public Object {',
      '#else',
      'struct Buffer::Impl : public Value {',
      '#endif',
      '  size_t Length() const { return n_; }',
      '};',
      '',
      'void Open() {',
      '#if USE_MMAP',
      '  if (mapped_) {',
      '#else',
      '  if (file_) {',
      '#endif',
      '    Load();',
      '  }',
      '}',
      '}  // namespace io',
    );
    // ctags: Impl 3-8 in io::Buffer, Open 10-18 in io. The `struct` keyword on line 3 lies loose in
    // the ERROR node the namespace became; without the loose path only the #else head was found.
    expect(await outline(code, 'src/buffer.h')).toEqual([
      ['io', 'module', null, 1, 19],
      ['Impl', 'struct', 'io.Buffer', 3, 8],
      ['Impl', 'struct', 'io.Buffer.Impl.Buffer', 5, 8],
      ['Length', 'method', 'io.Buffer.Impl.Buffer.Impl', 7, 7],
      ['Open', 'function', 'io', 10, 18],
    ]);
  });

  it('ends a class that an error node holds at its paired brace, though the class itself holds no error', async () => {
    const code = lines(
      'namespace io {',
      '#if IO_VERSION > 5',
      'class Buffer::Impl : public Object {',
      '#else',
      'class Buffer::Impl : public Value {',
      '#endif',
      ' public:',
      '  size_t Length();',
      '};',
      '',
      'class Reader : public Base {',
      ' public:',
      '  int Size() const { return size_; }',
      '};',
      '}  // namespace io',
    );
    // ctags: Impl 3-9 in io::Buffer, Reader 11-14 in io (it was Impl's member, the class ran to the end).
    expect(await outline(code, 'src/reader.h')).toEqual([
      ['io', 'module', null, 1, 15],
      ['Impl', 'class', 'io.Buffer', 3, 9],
      ['Impl', 'class', 'io.Buffer.Impl.Buffer', 5, 9],
      ['Reader', 'class', 'io', 11, 14],
      ['Size', 'method', 'io.Reader', 13, 13],
    ]);
  });

  it('starts a function read with a class as its return type at its declarator', async () => {
    const code = lines(
      'namespace io {',
      '#if IO_V2',
      'class Reader::Impl final : public Base {',
      '#else',
      'class Reader::Impl : public Other {',
      '#endif',
      ' public:',
      '  int Size() const { return 1; }',
      '};',
      '}  // namespace io',
      'void After() {}',
    );
    // tree-sitter read `class Reader::Impl … {…}; } void After() {}` as one function returning the
    // class: After spanned lines 3-11 and held the class. ctags: Impl 3-9 in io::Reader, After 11.
    const definitions = await outline(code, 'src/after.h');
    expect(definitions).toContainEqual(['Impl', 'class', 'io.Reader', 3, 10]);
    expect(definitions).toContainEqual(['After', 'function', null, 11, 11]);
  });

  it('recovers at most 64 loose scopes from an error storm, each container at most 64 names', async () => {
    // Each `namespace a {` stays open for the parser and nests everything after it one level deeper.
    const storm = '#ifdef X\nnamespace a {\n#endif\nvoid f() {}\n'.repeat(1_000);
    const definitions = await outline(storm, 'src/storm.h');
    const namespaces = definitions.filter(([, kind]) => kind === 'module');
    expect(namespaces.length).toBeLessThanOrEqual(64);
    expect(Math.max(...definitions.map(([, , container]) => String(container ?? '').split('.').length))).toBeLessThanOrEqual(64);
  });

  it('leaves out definitions nested deeper than code nests, so containers stay short', async () => {
    const deep = 'namespace a {\n'.repeat(2_000) + 'void f() {}\n' + '}\n'.repeat(2_000);
    const definitions = await outline(deep, 'src/deep.cc');
    expect(definitions.length).toBe(64);
    expect(definitions[63]).toEqual(['a', 'module', Array(63).fill('a').join('.'), 64, 4001 - 63]);
  });
});

describe('braces paired in first preprocessor branches', () => {
  const pairs = (code: string) => [...firstBranchBraces(code)].map(([open, close]) => [code.slice(0, open).split('\n').length, close && close.row + 1]);

  it('skips #else and #elif branches, the branch of #if 0, directives, comments and literals', () => {
    const code = lines(
      'namespace a {', // 1
      '#if USE_V2',
      'void f() {', // 3
      '#elif USE_V1',
      'void f(int) {',
      '#else',
      'void f(long) {',
      '#endif',
      '  g("{", \'}\', R"x({)x", 1\'000); // }',
      '  /* { */', // 10
      '}',
      '#if 0',
      '  {',
      '#else',
      '  {', // 15
      '#endif',
      '#define OPEN {',
      '  }',
      '}',
      'void h() {', // 20
    );
    expect(pairs(code)).toEqual([
      [3, 11],
      [15, 18],
      [1, 19],
      [20, null],
    ]);
  });
});
