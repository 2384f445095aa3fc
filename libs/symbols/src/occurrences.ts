import type { SymbolOccurrence } from '@gitdex/contracts';
import type { Node } from 'web-tree-sitter';

/** Node types that hold text, not code: nothing inside them is an occurrence. */
const TEXT = /comment|string|heredoc|char_literal|rune_literal|regex|text_block/;

/** Identifier nodes across the grammars: `*identifier`, Ruby's `constant`, PHP's `name`. */
const IDENTIFIER = /identifier$|^constant$|^name$/;

/** Nodes whose identifiers import a name rather than use it. */
const IMPORTS = new Set([
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'import_declaration',
  'use_declaration',
  'extern_crate_declaration',
  'using_directive',
  'using_declaration',
  'namespace_use_declaration',
]);

/**
 * Every identifier of the tree in file order, never inside a comment or a string, each marked as
 * the name of a definition, part of an import, or else a reference. Columns are UTF-16 offsets in
 * the line (web-tree-sitter parses the JavaScript string as UTF-16, so its indices are offsets in
 * the string).
 */
export function occurrencesOf(root: Node, content: string, definitionStarts: ReadonlySet<number>): SymbolOccurrence[] {
  const out: SymbolOccurrence[] = [];
  const cursor = root.walk();
  let importEnd = -1;
  let lineStart = 0;
  let lineStartRow = 0;
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (!TEXT.test(type)) {
        const start = cursor.startIndex;
        if (start >= importEnd && IMPORTS.has(type)) importEnd = cursor.endIndex;
        if (cursor.nodeIsNamed && IDENTIFIER.test(type)) {
          const end = cursor.endIndex;
          const name = content.slice(start, end);
          const row = cursor.startPosition.row;
          // Rows only grow along a preorder walk: move the line start forward, never search back.
          while (lineStartRow < row) {
            const next = content.indexOf('\n', lineStart);
            if (next === -1) break;
            lineStart = next + 1;
            lineStartRow++;
          }
          if (name && !name.includes('\n')) {
            const role = definitionStarts.has(start) ? 'definition' : start < importEnd ? 'import' : 'reference';
            out.push({ name, line: row + 1, start: start - lineStart, end: end - lineStart, role });
          }
        }
        if (cursor.gotoFirstChild()) continue;
      }
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return out;
    }
  } finally {
    cursor.delete();
  }
}
