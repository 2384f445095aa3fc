import type { SymbolOccurrence } from '@gitdex/contracts';
import type { Language, Node } from 'web-tree-sitter';

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

/** What a node type is to the walk. */
const OTHER = 0;
const SKIP = 1;
const IDENT = 2;
const IMPORT = 3;

const classes = new WeakMap<Language, Uint8Array>();

/**
 * The class of each node type id of a language, computed once per language: the walk then reads
 * one number per node from wasm instead of a type name, its namedness and a regex test (each
 * cursor property is a call into wasm, which is most of the walk's cost).
 */
function classesOf(language: Language): Uint8Array {
  let table = classes.get(language);
  if (!table) {
    table = new Uint8Array(language.types.length);
    language.types.forEach((type, id) => {
      if (!type) return;
      if (TEXT.test(type)) table![id] = SKIP;
      else if (IMPORTS.has(type)) table![id] = IMPORT;
      else if (IDENTIFIER.test(type) && language.nodeTypeIsNamed(id)) table![id] = IDENT;
    });
    classes.set(language, table);
  }
  return table;
}

/**
 * Every identifier of the tree in file order, never inside a comment or a string, each marked as
 * the name of a definition, part of an import, or else a reference. Columns are UTF-16 offsets in
 * the line (web-tree-sitter parses the JavaScript string as UTF-16, so its indices are offsets in
 * the string); lines count '\n' as tree-sitter's rows do. With `only`, just the identifiers so
 * named (an identifier of another length is passed over without reading its text).
 */
export function occurrencesOf(root: Node, content: string, definitionStarts: ReadonlySet<number>, only: string | null = null): SymbolOccurrence[] {
  const out: SymbolOccurrence[] = [];
  const table = classesOf(root.tree.language);
  const cursor = root.walk();
  let importEnd = -1;
  let lineStart = 0;
  let line = 1;
  let nextNewline = content.indexOf('\n');
  try {
    for (;;) {
      // ERROR (id 65535) and ids past the table are OTHER.
      const kind = table[cursor.nodeTypeId] ?? OTHER;
      if (kind !== SKIP) {
        if (kind === IMPORT) {
          const start = cursor.startIndex;
          if (start >= importEnd) importEnd = cursor.endIndex;
        } else if (kind === IDENT) {
          const start = cursor.startIndex;
          const end = cursor.endIndex;
          // Starts only grow along a preorder walk: move the line start forward, never search back.
          while (nextNewline !== -1 && nextNewline < start) {
            lineStart = nextNewline + 1;
            line++;
            nextNewline = content.indexOf('\n', lineStart);
          }
          const name = only === null ? content.slice(start, end) : end - start === only.length && content.startsWith(only, start) ? only : '';
          if (name && !name.includes('\n')) {
            const role = definitionStarts.has(start) ? 'definition' : start < importEnd ? 'import' : 'reference';
            out.push({ name, line, start: start - lineStart, end: end - lineStart, role });
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
