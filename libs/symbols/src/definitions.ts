import type { SymbolDefinition, SymbolKind } from '@gitdex/contracts';
import type { Node, Point, QueryMatch } from 'web-tree-sitter';
import { KIND_BY_CAPTURE, KIND_BY_NODE } from './grammars';
import { looseScope } from './loose-scopes';
import { bodyEnd, childrenOf, lostBodies, pairedEnd, type LostBodies } from './lost-bodies';
import { castName, operatorName } from './operator-names';
import { splitQualified } from './qualified-names';
import { signatureBetween, signatureOf } from './signature';

/** A definition as the query found it, before containers are known. */
interface Found {
  name: string;
  kind: SymbolKind;
  /** The definition's range (a C function's definition, not its declarator). */
  span: Span;
  nameStart: number;
  /** Which finding of one name wins: packaged 0, ours 1, a misread conversion operator read right 2. */
  rank: number;
  container: string | null;
  /** A function defined as a friend inside a class (see `nest`). */
  friend?: boolean;
}

/** A node that names the container of what is inside it without being a definition (a Rust impl). */
interface Scope {
  name: string;
  start: number;
  end: number;
}

/** Definitions nested deeper are left out (see `nest`). */
const MAX_NESTING = 64;

/** Kinds whose functions are methods. */
const TYPE_KINDS = new Set<SymbolKind>(['class', 'struct', 'interface', 'trait', 'enum']);

/** Declarators a C or C++ function name sits in, up to the definition that holds the body. */
const DECLARATORS = new Set(['function_declarator', 'pointer_declarator', 'reference_declarator', 'parenthesized_declarator', 'attributed_declarator']);

/** C and C++ type specifiers, which are definitions only with a body. */
const SPECIFIERS = new Set(['struct_specifier', 'class_specifier', 'union_specifier', 'enum_specifier']);

/** Where a definition lies, and its signature. */
interface Span {
  startIndex: number;
  endIndex: number;
  startPosition: Point;
  endPosition: Point;
  /** A C or C++ function definition (see `isCFunction`). */
  cFunction: boolean;
  signature: () => string;
}

const nodeSpan = (node: Node, content: string): Span => ({
  startIndex: node.startIndex,
  endIndex: node.endIndex,
  startPosition: node.startPosition,
  endPosition: node.endPosition,
  cFunction: isCFunction(node),
  signature: () => signatureOf(node, content),
});

/**
 * A C or C++ function definition (one with a declarator, which Python's and PHP's have not). C and
 * C++ have no nested functions (a local class's methods sit inside the class), so one found inside
 * another's body means the parser lost the outer's closing brace, often to braces split across
 * preprocessor branches, and took the rest of the file as its body.
 */
const isCFunction = (node: Node) => node.type === 'function_definition' && node.childForFieldName('declarator') !== null;

/**
 * The span of a definition. C and C++ tags capture the function declarator: its function is the
 * definition above it, and a declarator in a declaration is a prototype, which is no definition
 * (as universal-ctags, which leaves prototypes out by default). A declarator loose in an ERROR
 * node and followed by `{` is a definition whose braces the parser lost (split across
 * preprocessor branches): it spans from the declarator to the end of its body.
 */
function spanOf(node: Node, content: string, lost: LostBodies): Span | null {
  // `struct S;` and `class C;` declare a type defined elsewhere.
  if (SPECIFIERS.has(node.type) && !node.childForFieldName('body')) return null;
  if (node.type !== 'function_declarator') return { ...nodeSpan(node, content), ...pairedEnd(node, lost) };
  // One `parent` a step: web-tree-sitter finds a node's parent by walking down from the root.
  let top: Node = node;
  let above = node.parent;
  while (above && DECLARATORS.has(above.type)) {
    top = above;
    above = above.parent;
  }
  if (above?.type === 'function_definition') return isDeleted(above) ? null : { ...nodeSpan(above, content), ...pairedEnd(above, lost), ...afterTypeBody(above, top, content) };
  if (above?.type !== 'ERROR' || lost.left < 0) return null;
  const { nodes, at } = childrenOf(above, lost);
  const index = at.get(top.id);
  const open = index === undefined ? undefined : nodes[index + 1];
  if (index === undefined || !open || open.type !== '{') return null;
  const close = bodyEnd(nodes, index + 1, lost);
  if (!close) return null;
  return {
    startIndex: top.startIndex,
    endIndex: close.endIndex,
    startPosition: top.startPosition,
    endPosition: close.endPosition,
    cFunction: true,
    signature: () => signatureBetween(content, top.startIndex, open.startIndex, close.endIndex),
  };
}

/**
 * A function whose return type is a class with a body (`class A {…};` then `}` then `void f() {}`
 * where a preprocessor branch left the braces unbalanced, read as `class A {…} f() {}`): the class
 * is its own definition, and the function starts at its declarator, so it holds neither the class
 * nor what the class holds.
 */
function afterTypeBody(definition: Node, declarator: Node, content: string): Partial<Span> {
  const type = definition.childForFieldName('type');
  if (!type || !SPECIFIERS.has(type.type) || !type.childForFieldName('body')) return {};
  const body = definition.childForFieldName('body');
  return {
    startIndex: declarator.startIndex,
    startPosition: declarator.startPosition,
    signature: () => signatureBetween(content, declarator.startIndex, body?.startIndex ?? null, definition.endIndex),
  };
}

/**
 * `Cache(const Cache&) = delete;`: a function that cannot be called, which tree-sitter-cpp reads
 * as a definition and ctags as a prototype. Left out, so a class's real constructors are not
 * crowded out of find_symbol's first answers by the deleted copy constructor.
 */
const isDeleted = (definition: Node) => !definition.childForFieldName('body') && definition.lastChild?.type === 'delete_method_clause';

const qualified = (text: string) => text.replace(/::|\\/g, '.');

/** A name node's text, operators in one spelling (`operator ==` and `operator==` alike). */
function nameOf(node: Node): string {
  if (node.type === 'operator_cast') return castName(node);
  if (node.type === 'operator_name') return operatorName(node.text);
  return node.text;
}

/** Definitions of one parsed blob, in file order (outer before inner), with containers and signatures. */
export function definitionsOf(matches: readonly QueryMatch[], ownFrom: number, content: string): { definitions: SymbolDefinition[]; nameStarts: Set<number> } {
  const byName = new Map<number, Found>();
  const lost = lostBodies(content);
  const scopes: Scope[] = [];
  /** Starts of the function definitions declared `friend`. */
  const friends = new Set<number>();
  for (const match of matches) {
    let nameNode: Node | undefined;
    let defNode: Node | undefined;
    let suffix = '';
    let container: string | null = null;
    let scope: Node | undefined;
    let misread: Node | undefined;
    let loose: Node | undefined;
    for (const capture of match.captures) {
      if (capture.name === 'name') nameNode = capture.node;
      else if (capture.name.startsWith('definition.')) {
        defNode = capture.node;
        suffix = capture.name.slice('definition.'.length);
      } else if (capture.name === 'container') container = qualified(capture.node.text);
      else if (capture.name === 'scope') scope = capture.node;
      else if (capture.name === 'misread') misread = capture.node;
      else if (capture.name === 'loose') loose = capture.node;
      else if (capture.name === 'friend') friends.add(capture.node.startIndex);
      else if (capture.name === 'qualified') {
        const split = splitQualified(capture.node);
        nameNode = split.name;
        container = split.container || null;
      }
    }
    // A namespace or class whose tokens lie loose in an ERROR node (loose-scopes.ts).
    const recovered = loose && looseScope(loose, content, lost);
    if (recovered)
      byName.set(recovered.name.startIndex, {
        name: recovered.name.text,
        kind: recovered.kind,
        span: { ...recovered, cFunction: false },
        nameStart: recovered.name.startIndex,
        rank: 1,
        container: recovered.container,
      });
    if (!nameNode) continue;
    let name = nameOf(nameNode);
    let rank = match.patternIndex >= ownFrom ? 1 : 0;
    if (misread) {
      // Only a "type" ending in `operator` is a conversion operator misread; the name node is the
      // operator's type, whose own last name is where the other patterns found a function.
      const split = splitQualified(misread);
      if (split.name.text !== 'operator') continue;
      container = split.container || null;
      name = operatorName(`operator ${nameNode.text}`);
      if (nameNode.type === 'qualified_identifier') nameNode = splitQualified(nameNode).name;
      rank = 2;
    }
    if (!name) continue;
    if (scope) scopes.push({ name, start: scope.startIndex, end: scope.endIndex });
    if (!defNode) continue;
    const kind = KIND_BY_NODE[defNode.type] ?? KIND_BY_CAPTURE[suffix];
    const span = kind ? spanOf(defNode, content, lost) : null;
    if (!kind || !span) continue;
    const found: Found = { name, kind, span, nameStart: nameNode.startIndex, rank, container };
    const before = byName.get(found.nameStart);
    // Ours decides over the packaged query; within one source, the more specific kind wins.
    if (!before || rank > before.rank || (rank === before.rank && before.kind === 'function' && kind === 'method')) byName.set(found.nameStart, found);
  }
  const found = [...byName.values()];
  if (friends.size > 0) for (const def of found) def.friend = friends.has(def.span.startIndex);
  return { definitions: nest(found, scopes), nameStarts: new Set(byName.keys()) };
}

interface Open {
  name: string;
  end: number;
  kind: SymbolKind | 'scope';
  /** The definition's index in the output, when it is a C or C++ function (see `isCFunction`). */
  cFunction?: number;
}

function nest(found: Found[], scopes: Scope[]): SymbolDefinition[] {
  type Item = { start: number; end: number; def?: Found; scope?: Scope };
  const items: Item[] = [...found.map((def) => ({ start: def.span.startIndex, end: def.span.endIndex, def })), ...scopes.map((scope) => ({ start: scope.start, end: scope.end, scope }))];
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
    const cFunction = def.span.cFunction;
    if (cFunction) {
      // The swallowing function ends on the line before this one starts, and holds nothing after it.
      while (open.length > 0 && open[open.length - 1]!.cFunction !== undefined) {
        const outer = out[open.pop()!.cFunction!]!;
        outer.endLine = Math.max(outer.line, def.span.startPosition.row);
      }
    }
    // Deeper than code nests (an error storm, hostile input): left out, or each container would be thousands of names.
    if (open.length >= MAX_NESTING) continue;
    // A friend defined in a class belongs to the scope around the class, as for ctags
    // (`friend bool operator==(…)` in `DFA::State` is `DFA`'s).
    const around = def.friend && open.length > 0 && TYPE_KINDS.has(open[open.length - 1]!.kind as SymbolKind) ? open.slice(0, -1) : open;
    const path = around.map((o) => o.name);
    if (def.container) path.push(def.container);
    const parent = around[around.length - 1];
    const insideType = def.container !== null || (parent !== undefined && (parent.kind === 'scope' || TYPE_KINDS.has(parent.kind)));
    // A friend is no member, even when the scope around its class is another class.
    const kind: SymbolKind = def.friend ? 'function' : def.kind === 'function' && insideType ? 'method' : def.kind;
    const start = def.span.startPosition;
    const end = def.span.endPosition;
    // A node ending at the start of a line (a trailing newline) ends on the line before.
    const endRow = end.column === 0 && end.row > start.row ? end.row - 1 : end.row;
    out.push({ name: def.name, kind, line: start.row + 1, endLine: endRow + 1, container: path.length > 0 ? path.join('.') : null, signature: def.span.signature() });
    // What is inside `Outer::Inner` (a class or a method defined out of its class) is inside both.
    open.push({ name: def.container ? `${def.container}.${def.name}` : def.name, end: item.end, kind, ...(cFunction ? { cFunction: out.length - 1 } : {}) });
  }
  return out;
}
