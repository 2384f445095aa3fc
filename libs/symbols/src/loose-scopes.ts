import type { SymbolKind } from '@gitdex/contracts';
import type { Node, Point } from 'web-tree-sitter';
import { firstBranchBraces } from './first-branch-braces';
import { childrenOf, type LostBodies } from './lost-bodies';
import { splitQualified } from './qualified-names';
import { signatureBetween } from './signature';

/** A namespace, class, struct or union whose tokens the parser left loose in an ERROR node. */
export interface LooseScope {
  name: Node;
  kind: SymbolKind;
  /** `Outer` of `class Outer::Inner {`, else null. */
  container: string | null;
  startIndex: number;
  startPosition: Point;
  endIndex: number;
  endPosition: Point;
  /** Its head up to the `{` (`class TypedArray : public Object`). */
  signature: () => string;
}

/**
 * Loose scopes recovered in one blob. Real files have a few (node-addon-api's headers three, the
 * namespaces a preprocessor branch opens); each nests what follows it one level deeper, so an error
 * storm of thousands would make every definition's container thousands of names long.
 */
export const LOOSE_SCOPE_LIMIT = 64;

const KINDS: Readonly<Record<string, SymbolKind>> = { namespace: 'module', class: 'class', struct: 'struct', union: 'struct' };

/** Names each keyword may take (a namespace's as its complete definition's pattern takes them). */
const NAMES: Readonly<Record<string, ReadonlySet<string>>> = {
  namespace: new Set(['identifier', 'namespace_identifier']),
  class: new Set(['type_identifier', 'identifier', 'template_type', 'qualified_identifier']),
};

/** What may stand between a class's name and its `{`: `final`, `: public Base`, attributes. */
const BEFORE_BODY = new Set(['virtual_specifier', 'base_class_clause', 'attribute_specifier', 'attribute_declaration']);

/**
 * The scope a loose keyword opens (`namespace Napi {`, `class TypedArray : public Object {`), when
 * the tokens after it in its ERROR node are a name and then a `{` (past `final`, base classes and
 * attributes). tree-sitter reads the scope's definitions as loose siblings after it, so they lose
 * their container; this span gives it back. It ends at the `}` that pairs with its `{` counted in
 * the first branch of every preprocessor conditional (first-branch-braces.ts, as universal-ctags
 * reads them), or at the end of the ERROR node when nothing closes it. A `{` inside a skipped
 * branch (`#else namespace other {`) opens nothing ctags sees, and is left as it was.
 */
export function looseScope(keyword: Node, content: string, lost: LostBodies): LooseScope | null {
  const kind = KINDS[keyword.type];
  const recovered = lost.scopes ?? 0;
  if (!kind || recovered >= LOOSE_SCOPE_LIMIT || lost.left < 0) return null;
  const error = keyword.parent;
  if (error?.type !== 'ERROR') return null;
  const { nodes, at } = childrenOf(error, lost);
  const index = at.get(keyword.id);
  if (index === undefined) return null;
  // `enum class Color {` is an enum, which the packaged patterns find when it parses.
  if (nodes[index - 1]?.type === 'enum') return null;
  const name = nodes[index + 1];
  if (!name || !(NAMES[keyword.type] ?? NAMES.class!).has(name.type)) return null;
  let open = index + 2;
  while (open < index + 5 && nodes[open] && BEFORE_BODY.has(nodes[open]!.type)) open += 1;
  const brace = nodes[open];
  if (!brace || brace.type !== '{' || brace.isMissing) return null;
  lost.braces ??= firstBranchBraces(lost.content);
  const close = lost.braces.get(brace.startIndex);
  if (close === undefined) return null;
  lost.scopes = recovered + 1;
  const { name: nameNode, container } = splitName(name);
  const endIndex = close ? close.endIndex : error.endIndex;
  return {
    name: nameNode,
    kind,
    container,
    startIndex: keyword.startIndex,
    startPosition: keyword.startPosition,
    endIndex,
    endPosition: close ? { row: close.row, column: close.column } : error.endPosition,
    signature: () => signatureBetween(content, keyword.startIndex, brace.startIndex, endIndex),
  };
}

/** `Outer::Inner` as name node `Inner` and container `Outer`; `Holder<T>` as `Holder`. */
function splitName(name: Node): { name: Node; container: string | null } {
  if (name.type === 'template_type') return { name: name.childForFieldName('name') ?? name, container: null };
  if (name.type !== 'qualified_identifier') return { name, container: null };
  const split = splitQualified(name);
  return { name: split.name, container: split.container || null };
}
