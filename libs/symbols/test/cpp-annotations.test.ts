// C and C++ code whose macros and preprocessor lines stand where tree-sitter expects a name or an
// expression (found on the leveldb tuning set), each checked against what universal-ctags
// reports for the same code.
import { extractSymbols } from '../src';
import { blankListedConditionals } from '../src/listed-conditionals';
import { blankLoneMacros } from '../src/lone-macros';

const lines = (...rows: string[]) => rows.join('\n') + '\n';
const outline = async (code: string, path = 'include/db.h', language = 'C++') => {
  const symbols = await extractSymbols(code, path, language, undefined, 'none');
  expect(symbols.status).toBe('parsed');
  return symbols.definitions.map((d) => [d.name, d.kind, d.container, d.line, d.endLine]);
};

describe('C and C++ definitions around annotation macros', () => {
  it('reads past an export or annotation macro before a class name, and keeps a name that is upper case', async () => {
    const code = lines(
      'namespace leveldb {',
      'class LEVELDB_EXPORT Cache {',
      ' public:',
      '  static Status OK() { return Status(); }',
      '};',
      'struct LEVELDB_EXPORT Options {',
      '  Options() {}',
      '};',
      'class LOCKABLE Mutex final : public Base {',
      '  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }',
      '};',
      'class FILE_LOCK {',
      '};',
      'struct STAT buf;',
      'struct ALIGNAS(16) VEC4 {',
      '  float x;',
      '};',
      '}',
    );
    // tree-sitter took each macro for the class name: `Cache`, `Options`, `Mutex` were not found
    // and their members had the macro as their container.
    expect(await outline(code)).toEqual([
      ['leveldb', 'module', null, 1, 18],
      ['Cache', 'class', 'leveldb', 2, 5],
      ['OK', 'method', 'leveldb.Cache', 4, 4],
      ['Options', 'struct', 'leveldb', 6, 8],
      ['Options', 'method', 'leveldb.Options', 7, 7],
      ['Mutex', 'class', 'leveldb', 9, 11],
      ['Lock', 'method', 'leveldb.Mutex', 10, 10],
      ['FILE_LOCK', 'class', 'leveldb', 12, 13],
      ['VEC4', 'struct', 'leveldb', 15, 17],
    ]);
  });

  it('reads a constructor whose initializer list holds an #if without #else, and the classes after it', async () => {
    const code = lines(
      'class Limiter {',
      ' public:',
      '  Limiter(int max_acquires)',
      '      :',
      '#if !defined(NDEBUG)',
      '        max_acquires_(max_acquires),',
      '#endif  // !defined(NDEBUG)',
      '        acquires_allowed_(max_acquires) {',
      '    assert(max_acquires >= 0);',
      '  }',
      '  bool Acquire() { return true; }',
      '};',
      'class WindowsSequentialFile : public SequentialFile {',
      ' public:',
      '  Status Skip(uint64_t n) override { return Status::OK(); }',
      '};',
    );
    // The list was an error that took the constructor, and the class after it was lost.
    expect(await outline(code, 'util/env_windows.cc')).toEqual([
      ['Limiter', 'class', null, 1, 12],
      ['Limiter', 'method', 'Limiter', 3, 10],
      ['Acquire', 'method', 'Limiter', 11, 11],
      ['WindowsSequentialFile', 'class', null, 13, 16],
      ['Skip', 'method', 'WindowsSequentialFile', 15, 15],
    ]);
  });

  it('reads past an annotation macro first on the line after the parameters', async () => {
    const code = lines('class InMemoryEnv {', '  void RemoveFileInternal(const std::string& fname)', '      EXCLUSIVE_LOCKS_REQUIRED(mutex_) {', '    file_map_.erase(fname);', '  }', '};');
    expect(await outline(code, 'helpers/memenv/memenv.cc')).toEqual([
      ['InMemoryEnv', 'class', null, 1, 6],
      ['RemoveFileInternal', 'method', 'InMemoryEnv', 2, 5],
    ]);
  });

  it('leaves out a deleted function, as ctags leaves out a prototype, and keeps a defaulted one', async () => {
    const code = lines('class Cache {', ' public:', '  Cache() = default;', '  Cache(const Cache&) = delete;', '  Cache& operator=(const Cache&) = delete;', '  explicit Cache(int n) {}', '};');
    expect(await outline(code)).toEqual([
      ['Cache', 'class', null, 1, 7],
      ['Cache', 'method', 'Cache', 3, 3],
      ['Cache', 'method', 'Cache', 6, 6],
    ]);
  });

  it('names a typedef of a function pointer, in C++ and in C', async () => {
    const code = lines('typedef Iterator* (*BlockFunction)(void*, const ReadOptions&, const Slice&);', 'typedef void (*Callback)(int);', 'typedef int Plain;');
    const expected = [
      ['BlockFunction', 'type', null, 1, 1],
      ['Callback', 'type', null, 2, 2],
      ['Plain', 'type', null, 3, 3],
    ];
    expect(await outline(code, 'table/two_level_iterator.cc')).toEqual(expected);
    expect(await outline(code, 'src/callbacks.c', 'C')).toEqual(expected);
  });

  it('blanks in one pass: a megabyte of each near-miss shape comes back as it was', () => {
    // Each shape starts a candidate match at every repetition; a pattern that rescanned the rest
    // of the line from each (a comment after a comma did) took minutes here instead of milliseconds.
    for (const shape of [',//', ', //:', 'class A(', 'struct FOO ', ') FOO(', ',\n#if X\n']) {
      const text = shape.repeat(Math.ceil((1 << 20) / shape.length));
      expect(blankListedConditionals(blankLoneMacros(text))).toBe(text);
    }
  });
});
