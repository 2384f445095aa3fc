// C and C++ constructs tree-sitter reads under another shape, each checked against what
// universal-ctags reports for the same code: conversion operators, classes defined as
// `Outer::Inner`, template specialisations, bodies whose braces preprocessor branches split, and
// macros standing alone on a line.
import { extractSymbols } from '../src';

const lines = (...rows: string[]) => rows.join('\n') + '\n';
const outline = async (code: string, path = 'src/napi.h', language = 'C++') => {
  const symbols = await extractSymbols(code, path, language, undefined, 'none');
  expect(symbols.status).toBe('parsed');
  return symbols.definitions.map((d) => [d.name, d.kind, d.container, d.line, d.endLine]);
};

describe('C and C++ definitions', () => {
  it('names conversion operators, in a class and defined out of it, in one spelling', async () => {
    const code = lines(
      'namespace Napi {',
      'class Env {',
      ' public:',
      '  operator bool() const { return env_ != nullptr; }',
      '  operator const napi_env&() const { return env_; }',
      '  bool operator ==(const Env& other) const { return true; }',
      '};',
      'inline Env::operator napi_env() const {',
      '  return _env;',
      '}',
      'inline String::operator std::string() const { return Utf8Value(); }',
      'inline Object::PropertyLValue<Key>::operator Value() const { return Get(); }',
      'inline PropertyDescriptor::operator const napi_property_descriptor&() const { return _desc; }',
      '}',
    );
    expect(await outline(code)).toEqual([
      ['Napi', 'module', null, 1, 14],
      ['Env', 'class', 'Napi', 2, 7],
      ['operator bool', 'method', 'Napi.Env', 4, 4],
      ['operator const napi_env&', 'method', 'Napi.Env', 5, 5],
      ['operator==', 'method', 'Napi.Env', 6, 6],
      // tree-sitter-cpp reads these as functions `napi_env`, `string` and `Value`.
      ['operator napi_env', 'method', 'Napi.Env', 8, 10],
      ['operator std::string', 'method', 'Napi.String', 11, 11],
      ['operator Value', 'method', 'Napi.Object.PropertyLValue', 12, 12],
      ['operator const napi_property_descriptor&', 'method', 'Napi.PropertyDescriptor', 13, 13],
    ]);
  });

  it('finds a class defined as Outer::Inner and its members under both, and template specialisations', async () => {
    const code = lines(
      'class Object::const_iterator {',
      ' private:',
      '  enum class Type { BEGIN, END };',
      '  void advance() { ++_index; }',
      '};',
      'void Object::iterator::reset() {',
      '  struct Guard { int depth; };',
      '}',
      'template <typename B>',
      'struct disjunction<B> : B {};',
      'template <>',
      'class Holder<bool> { int value; };',
    );
    expect(await outline(code)).toEqual([
      ['const_iterator', 'class', 'Object', 1, 5],
      ['Type', 'enum', 'Object.const_iterator', 3, 3],
      ['advance', 'method', 'Object.const_iterator', 4, 4],
      ['reset', 'method', 'Object.iterator', 6, 8],
      ['Guard', 'struct', 'Object.iterator.reset', 7, 7],
      ['disjunction', 'struct', null, 10, 10],
      ['Holder', 'class', null, 12, 12],
    ]);
  });

  it('ends a function whose body swallowed the rest of the file where the next function begins', async () => {
    // The `{` opened in one preprocessor branch leaves the body unclosed for the parser.
    const code = lines(
      'namespace io {',
      'int Reader::fd() const {',
      '#ifdef _WIN32',
      '  if (handle_) {',
      '#endif',
      '  return fd_;',
      '}',
      '',
      'void Reader::close() {',
      '  release();',
      '}',
      '',
      'int Reader::size() const {',
      '  return size_;',
      '}',
      '}  // namespace io',
    );
    expect(await outline(code, 'src/reader.cc')).toEqual([
      ['io', 'module', null, 1, 16],
      ['fd', 'method', 'io.Reader', 2, 8],
      ['close', 'method', 'io.Reader', 9, 11],
      ['size', 'method', 'io.Reader', 13, 15],
    ]);
  });

  it('finds a function whose body the parser left loose in an error, up to its end', async () => {
    const code = lines('void Reader::open() {', '#if USE_MMAP', '  if (mapped_) {', '#else', '  if (file_) {', '#endif', '    load();', '  }', '}', '', 'void Reader::close() {', '  release();', '}');
    expect(await outline(code, 'src/reader.cc')).toEqual([
      ['open', 'method', 'Reader', 1, 9],
      ['close', 'method', 'Reader', 11, 13],
    ]);
  });

  it('ends each of many unclosed bodies in one error node before the next declarator', async () => {
    const definitions = await outline('void f() {\n'.repeat(500) + 'int last() { return 1; }\n', 'src/storm.cc');
    expect(definitions.length).toBeGreaterThanOrEqual(500);
    expect(definitions.slice(0, 3)).toEqual([
      ['f', 'function', null, 1, 1],
      ['f', 'function', null, 2, 2],
      ['f', 'function', null, 3, 3],
    ]);
  });

  it('reads past a macro between a function parameters and its body, as ctags does', async () => {
    const code = lines(
      'class InstanceWrap {',
      '  template <InstanceSetterCallback setter>',
      '  static napi_callback WrapSetter(SetterTag<setter>) NAPI_NOEXCEPT {',
      '    return &This::WrappedMethod<setter>;',
      '  }',
      '  void Run() const LOCKS_EXCLUDED(mu_) {',
      '    Step();',
      '  }',
      '  void Declared() NAPI_NOEXCEPT;',
      '};',
    );
    // tree-sitter read the macro as the declarator: `Run` was a method named `LOCKS_EXCLUDED`.
    expect(await outline(code)).toEqual([
      ['InstanceWrap', 'class', null, 1, 10],
      ['WrapSetter', 'method', 'InstanceWrap', 3, 5],
      ['Run', 'method', 'InstanceWrap', 6, 8],
    ]);
  });

  it('reads past a macro standing alone on its line, in C and in a C header', async () => {
    const code = lines(
      '#include "cpu_features_macros.h"',
      '',
      'CPU_FEATURES_START_CPP_NAMESPACE',
      '',
      'typedef struct {',
      '  const char* ptr;',
      '  size_t size;',
      '} StringView;',
      '',
      'int CpuFeatures_StringView_IndexOfChar(const StringView view, char c) {',
      '  return -1;',
      '}',
      '',
      'CPU_FEATURES_END_CPP_NAMESPACE',
    );
    const expected = [
      ['StringView', 'type', null, 5, 8],
      ['CpuFeatures_StringView_IndexOfChar', 'function', null, 10, 12],
    ];
    expect(await outline(code, 'include/string_view.h', 'C')).toEqual(expected);
    expect(await outline(code, 'src/string_view.c', 'C')).toEqual(expected);
  });
});
