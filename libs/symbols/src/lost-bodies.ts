import type { Node, Point } from 'web-tree-sitter';
import { firstBranchBraces, type BraceEnd } from './first-branch-braces';

/**
 * Nodes a blob's search for lost bodies' ends may look at, all bodies together: each search is
 * linear, but an error storm of many unclosed bodies, each holding the rest of the file, would make
 * them quadratic. Real files' lost bodies take a few hundred; past the budget no more are recovered.
 */
export const LOST_BODY_BUDGET = 200_000;

/**
 * A blob's search for lost bodies: what is left of its LOST_BODY_BUDGET, and the children of each
 * ERROR node searched, read once (web-tree-sitter finds a node's next sibling by walking its
 * parent's children from the first: sibling by sibling, an error node of many would be quadratic).
 */
export interface LostBodies {
  left: number;
  children: Map<number, { nodes: Node[]; at: Map<number, number> }>;
  /** The blob's text. */
  content: string;
  /** Its braces paired in first preprocessor branches, read once when a loose scope needs them. */
  braces?: Map<number, BraceEnd | null>;
  /** Loose scopes recovered so far (at most LOOSE_SCOPE_LIMIT, loose-scopes.ts). */
  scopes?: number;
  /** Ids of the nodes whose parent is an ERROR node, read once when a definition asks. */
  inError?: Set<number>;
}

export function childrenOf(error: Node, lost: LostBodies): { nodes: Node[]; at: Map<number, number> } {
  let known = lost.children.get(error.id);
  if (!known) {
    const nodes = error.children.filter((n): n is Node => n !== null);
    lost.left -= nodes.length;
    known = { nodes, at: new Map(nodes.map((n, i) => [n.id, i])) };
    lost.children.set(error.id, known);
  }
  return known;
}

/** Nodes that never stand inside a function body: where one begins, a lost body has ended. */
const OUTSIDE_BODIES = new Set(['function_definition', 'template_declaration', 'namespace_definition', 'linkage_specification', 'function_declarator']);

/**
 * The last node of a body whose `{` (`siblings[open]`) the parser did not take as one (its tokens
 * lie loose in an ERROR node): the `}` that balances the braces after it (those in comments and
 * strings are no `{` nodes), or, when preprocessor branches leave them unbalanced, the last node
 * on a line before the next definition (a loose declarator's return type shares its line).
 */
export function bodyEnd(siblings: readonly Node[], open: number, lost: LostBodies): Node | null {
  let depth = 1;
  for (let i = open + 1; i < siblings.length; i++) {
    const sibling = siblings[i]!;
    lost.left -= 1 + sibling.descendantCount;
    if (lost.left < 0) return null;
    if (OUTSIDE_BODIES.has(sibling.type)) {
      let last = i - 1;
      while (last > open && siblings[last]!.endPosition.row >= sibling.startPosition.row) last--;
      return siblings[last]!;
    }
    const braces = sibling.type === '{' || sibling.type === '}' ? [sibling] : sibling.descendantsOfType(['{', '}']);
    for (const brace of braces) {
      if (!brace || brace.isMissing) continue;
      depth += brace.type === '{' ? 1 : -1;
      if (depth === 0) return brace;
    }
  }
  return null;
}

/** C and C++ definitions with a body in braces (a C function: one with a declarator). */
const BRACED = new Set(['class_specifier', 'struct_specifier', 'union_specifier']);

/**
 * Where a C or C++ definition the parser ran past its end really ends: a class or function
 * holding an error (braces split across preprocessor branches, `#if … class A : public B {
 * #else … class A : public C { #endif`) can take the rest of the file as its body, and what
 * follows as its members. Its `{` paired in first preprocessor branches, as universal-ctags pairs
 * it (first-branch-braces.ts), ends it there when that comes first; else undefined.
 */
export function pairedEnd(node: Node, lost: LostBodies): { endIndex: number; endPosition: Point } | undefined {
  if (!(BRACED.has(node.type) || (node.type === 'function_definition' && node.childForFieldName('declarator')))) return undefined;
  // One whose `{` a skipped branch doubled (`#if` `class A : B {` `#else` `class A : C {`) may
  // hold no error itself when the error is its parent.
  if (!node.hasError && !inError(node, lost)) return undefined;
  const body = node.childForFieldName('body');
  if (!body) return undefined;
  lost.braces ??= firstBranchBraces(lost.content);
  const close = lost.braces.get(body.startIndex);
  if (!close || close.endIndex >= node.endIndex) return undefined;
  return { endIndex: close.endIndex, endPosition: { row: close.row, column: close.column } };
}

export const lostBodies = (content: string): LostBodies => ({ left: LOST_BODY_BUDGET, children: new Map(), content });

/**
 * Whether a node's parent is an ERROR node. `parent` walks down from the root through each
 * level's children, so asking it of every definition in a flat error storm would be quadratic:
 * the children of every ERROR node are read once instead, charged to the blob's budget.
 */
function inError(node: Node, lost: LostBodies): boolean {
  if (!lost.inError) {
    lost.inError = new Set();
    const root = node.tree.rootNode;
    if (root.hasError) {
      // The root itself is an ERROR node when nothing at the top parsed.
      for (const error of [root, ...root.descendantsOfType('ERROR')]) {
        if (lost.left < 0) break;
        if (error?.type !== 'ERROR') continue;
        for (const child of childrenOf(error, lost).nodes) lost.inError.add(child.id);
      }
    }
  }
  return lost.inError.has(node.id);
}
