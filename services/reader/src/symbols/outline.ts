import type { OutlineNode, SymbolDefinition } from '@gitdex/contracts';

/**
 * The definitions of a file as a tree: each one under the nearest earlier definition whose
 * lines hold it. Nesting comes from the line ranges, not the container names, so a method
 * defined outside its class (Go receivers, C++ out-of-line members) stays at the top level
 * where it is written. Input in file order (line, outer before inner); output keeps it.
 */
export function nestOutline(definitions: readonly SymbolDefinition[]): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const open: OutlineNode[] = [];
  const sorted = [...definitions].sort((a, b) => a.line - b.line || b.endLine - a.endLine);
  for (const d of sorted) {
    const node: OutlineNode = { name: d.name, kind: d.kind, line: d.line, end_line: d.endLine, signature: d.signature, children: [] };
    while (open.length > 0 && !holds(open[open.length - 1] as OutlineNode, node)) open.pop();
    const parent = open[open.length - 1];
    (parent ? parent.children : roots).push(node);
    open.push(node);
  }
  return roots;
}

/** A definition holds another that lies within its lines and is not the very same range. */
function holds(outer: OutlineNode, inner: OutlineNode): boolean {
  return outer.line <= inner.line && inner.end_line <= outer.end_line && !(outer.line === inner.line && outer.end_line === inner.end_line);
}

export function countNodes(nodes: readonly OutlineNode[]): number {
  let count = 0;
  for (const node of nodes) count += 1 + countNodes(node.children);
  return count;
}
