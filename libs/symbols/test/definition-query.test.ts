// The packaged tags queries cut to their definition patterns: what each grammar's compiled query
// holds, and that a patterns' count taken from the source is the one tree-sitter compiles.
import { Query } from 'web-tree-sitter';
import { SUPPORTED_LANGUAGES } from '../src';
import { definitionPatterns, splitPatterns } from '../src/definition-query';
import { grammarFor } from '../src/grammars';
import { loadGrammar } from '../src/runtime';

const grammars = [...SUPPORTED_LANGUAGES.map((language) => grammarFor(language, 'x')!), grammarFor('TypeScript', 'x.tsx')!];

describe('definition patterns', () => {
  it.each(grammars.map((g) => [g.id, g] as const))('%s: only definitions and our own captures, counted as tree-sitter counts them', async (_, grammar) => {
    const loaded = await loadGrammar(grammar);
    const captures = loaded.query.captureNames;
    expect(captures.filter((name) => name === 'doc' || name.startsWith('reference.'))).toEqual([]);
    expect(captures.some((name) => name.startsWith('definition.'))).toBe(true);
    // ownFrom splits packaged from own patterns: ours must start exactly there.
    const own = splitPatterns(grammar.own).length;
    expect(loaded.query.patternCount()).toBe(loaded.ownFrom + own);
    const ownOnly = new Query(loaded.language, grammar.own);
    expect(ownOnly.patternCount()).toBe(own);
    ownOnly.delete();
  });

  it('splits top-level patterns, keeping brackets and semicolons inside strings and dropping comments', () => {
    const source = '; a comment (with a bracket\n(a) @x\n[(b) (c)] @y\n((d) @z (#match? @z "^[(;]"))\n';
    expect(splitPatterns(source)).toEqual(['(a) @x', '[(b) (c)] @y', '((d) @z (#match? @z "^[(;]"))']);
    expect(() => splitPatterns('((a)')).toThrow('ends inside a pattern');
  });

  it('drops reference patterns and doc-comment captures, keeping the rest of a definition pattern', () => {
    const source = [
      '((comment)* @doc . (method_definition name: (property_identifier) @name) @definition.method (#not-eq? @name "constructor") (#strip! @doc "^[\\\\s\\\\*/]+|^[\\\\s\\\\*/]$") (#select-adjacent! @doc @definition.method))',
      '(call_expression function: (identifier) @name) @reference.call',
      '(setter (identifier) @ignore)',
    ].join('\n');
    expect(definitionPatterns(source)).toBe('((method_definition name: (property_identifier) @name) @definition.method (#not-eq? @name "constructor")  )');
  });
});
