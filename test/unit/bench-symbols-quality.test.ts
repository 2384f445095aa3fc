// The symbols quality bench's scoring (bench/symbols-quality/compare.ts): what counts as ctags's
// definition held by an outline, as ours confirmed, and as found by name.
import type { SymbolDefinition } from '@gitdex/contracts';
import { compare, findByName } from '../../bench/symbols-quality/compare';
import type { CtagsTag } from '../../bench/symbols-quality/ctags';

const def = (name: string, line: number, endLine: number, container: string | null = null, kind: SymbolDefinition['kind'] = 'function'): SymbolDefinition => ({
  name,
  kind,
  line,
  endLine,
  container,
  signature: name,
});
const tag = (path: string, name: string, line: number, scope?: string, scopeKind?: string): CtagsTag => ({
  name,
  path,
  line,
  kind: 'function',
  language: 'Python',
  ...(scope ? { scope } : {}),
  ...(scopeKind ? { scopeKind } : {}),
});

describe('symbols quality scoring', () => {
  it('holds a ctags definition when a same-name outline entry spans its line, and confirms ours the other way', () => {
    const outlines = new Map([['a.py', [def('f', 1, 3), def('g', 5, 5), def('operator!=', 7, 7), def('Local', 9, 9, null, 'variable')]]]);
    const result = compare([tag('a.py', 'f', 2), tag('a.py', 'g', 6), tag('a.py', 'operator !=', 7), tag('b.py', 'f', 1)], outlines);
    expect(result).toMatchObject({ ctags: 4, found: 2, ours: 3, confirmed: 2 });
    expect(result.missed).toEqual(['a.py:6 function g', 'b.py:1 function f']);
    expect(result.extra).toEqual(['a.py:5 function g']);
  });

  it('finds by name, or by Type.name when ctags scopes the definition in a type', () => {
    const outlines = new Map([
      ['x/a.py', [def('A', 1, 9, null, 'class'), def('run', 2, 3, 'A', 'method')]],
      ['b.py', [def('B', 1, 9, null, 'class'), def('run', 2, 3, 'B', 'method')]],
    ]);
    const figures = findByName([tag('x/a.py', 'run', 2, 'pkg.A', 'class'), tag('b.py', 'run', 2, 'B', 'class'), tag('b.py', 'B', 1)], outlines);
    expect(figures).toEqual({ asked: 3, top5: 3, unique: 3, uniqueFirst: 3 });
    // By name alone, the shallower path comes first.
    expect(findByName([tag('x/a.py', 'run', 2)], outlines)).toEqual({ asked: 1, top5: 1, unique: 1, uniqueFirst: 0 });
  });
});
