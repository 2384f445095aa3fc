import type { SymbolDefinition, SymbolKind } from '@gitdex/contracts';
import type { Node, QueryMatch } from 'web-tree-sitter';
import { KIND_BY_CAPTURE, KIND_BY_NODE } from './grammars';
import { signatureOf } from './signature';

/** A definition as the query found it, before containers are known. */
interface Found {
  name: string;
  kind: SymbolKind;
  /** The node whose range is the definition's (a C function's definition, not its declarator). */
  node: Node;
  nameStart: number;
  own: boolean;
  container: string | null;
}

/** A node that names the container of what is inside it without being a definition (a Rust impl). */
interface Scope {
  name: string;
  start: number;
  end: number;
}

/** Kinds whose functions are methods. */
const TYPE_KINDS = new Set<SymbolKind>(['class', 'struct', 'interface', 'trait', 'enum']);

/** Declarators a C or C++ function name sits in, up to the definition that holds the body. */
const DECLARATORS = new Set(['function_declarator', 'pointer_declarator', 'reference_declarator', 'parenthesized_declarator', 'attributed_declarator']);

/** C and C++ type specifiers, which are definitions only with a body. */
const SPECIFIERS = new Set(['struct_specifier', 'class_specifier', 'union_specifier', 'enum_specifier']);

/**
 * The node spanning a definition. C and C++ tags capture the function declarator: its function is
 * the definition above it, and a declarator in a declaration is a prototype, which is no definition
 * (as universal-ctags, which leaves prototypes out by default).
 */
function spanOf(node: Node): Node | null {
  // `struct S;` and `class C;` declare a type defined elsewhere.
  if (SPECIFIERS.has(node.type) && !node.childForFieldName('body')) return null;
  if (node.type !== 'function_declarator') return node;
  let current: Node | null = node;
  while (current && DECLARATORS.has(current.type)) current = current.parent;
  return current && current.type === 'function_definition' ? current : null;
}

const qualified = (text: string) => text.replace(/::|\\/g, '.');

/** `a::B<T>::c` as name node `c` and container `a.B`, however deep the qualification. */
function splitQualified(node: Node): { name: Node; container: string } {
  const scopes: string[] = [];
  let current: Node = node;
  for (;;) {
    const scope = current.childForFieldName('scope');
    const name = current.childForFieldName('name');
    if (current.type !== 'qualified_identifier' || !name) break;
    if (scope) scopes.push((scope.type === 'template_type' ? (scope.childForFieldName('name') ?? scope) : scope).text);
    current = name;
  }
  return { name: current, container: scopes.join('.') };
}

/** Definitions of one parsed blob, in file order (outer before inner), with containers and signatures. */
export function definitionsOf(matches: readonly QueryMatch[], ownFrom: number, content: string): { definitions: SymbolDefinition[]; nameStarts: Set<number> } {
  const byName = new Map<number, Found>();
  const scopes: Scope[] = [];
  for (const match of matches) {
    let nameNode: Node | undefined;
    let defNode: Node | undefined;
    let suffix = '';
    let container: string | null = null;
    let scope: Node | undefined;
    for (const capture of match.captures) {
      if (capture.name === 'name') nameNode = capture.node;
      else if (capture.name.startsWith('definition.')) {
        defNode = capture.node;
        suffix = capture.name.slice('definition.'.length);
      } else if (capture.name === 'container') container = qualified(capture.node.text);
      else if (capture.name === 'scope') scope = capture.node;
      else if (capture.name === 'qualified') {
        const split = splitQualified(capture.node);
        nameNode = split.name;
        container = split.container || null;
      }
    }
    if (!nameNode) continue;
    const name = nameNode.text;
    if (!name) continue;
    if (scope) scopes.push({ name, start: scope.startIndex, end: scope.endIndex });
    if (!defNode) continue;
    const kind = KIND_BY_NODE[defNode.type] ?? KIND_BY_CAPTURE[suffix];
    const node = spanOf(defNode);
    if (!kind || !node) continue;
    const own = match.patternIndex >= ownFrom;
    const found: Found = { name, kind, node, nameStart: nameNode.startIndex, own, container };
    const before = byName.get(found.nameStart);
    // Ours decides over the packaged query; within one source, the more specific kind wins.
    if (!before || (own && !before.own) || (own === before.own && before.kind === 'function' && kind === 'method')) byName.set(found.nameStart, found);
  }
  return { definitions: nest([...byName.values()], scopes, content), nameStarts: new Set(byName.keys()) };
}

interface Open {
  name: string;
  end: number;
  kind: SymbolKind | 'scope';
}

function nest(found: Found[], scopes: Scope[], content: string): SymbolDefinition[] {
  type Item = { start: number; end: number; def?: Found; scope?: Scope };
  const items: Item[] = [...found.map((def) => ({ start: def.node.startIndex, end: def.node.endIndex, def })), ...scopes.map((scope) => ({ start: scope.start, end: scope.end, scope }))];
  // Outer before inner; a scope before the definitions it holds.
  items.sort((a, b) => a.start - b.start || b.end - a.end || (a.scope ? -1 : 0) - (b.scope ? -1 : 0));
  const open: Open[] = [];
  const out: SymbolDefinition[] = [];
  for (const item of items) {
    while (open.length > 0 && open[open.length - 1]!.end <= item.start) open.pop();
    if (item.scope) {
      open.push({ name: item.scope.name, end: item.end, kind: 'scope' });
      continue;
    }
    const def = item.def!;
    const path = open.map((o) => o.name);
    if (def.container) path.push(def.container);
    const parent = open[open.length - 1];
    const insideType = def.container !== null || (parent !== undefined && (parent.kind === 'scope' || TYPE_KINDS.has(parent.kind)));
    const kind: SymbolKind = def.kind === 'function' && insideType ? 'method' : def.kind;
    const start = def.node.startPosition;
    const end = def.node.endPosition;
    // A node ending at the start of a line (a trailing newline) ends on the line before.
    const endRow = end.column === 0 && end.row > start.row ? end.row - 1 : end.row;
    out.push({ name: def.name, kind, line: start.row + 1, endLine: endRow + 1, container: path.length > 0 ? path.join('.') : null, signature: signatureOf(def.node, content) });
    open.push({ name: def.name, end: item.end, kind });
  }
  return out;
}
