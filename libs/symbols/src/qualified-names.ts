import type { Node } from 'web-tree-sitter';

/** `a::B<T>::c` (or `a::B<T>::c<int>`) as name node `c` and container `a.B`, however deep the qualification. */
export function splitQualified(node: Node): { name: Node; container: string } {
  const scopes: string[] = [];
  let current: Node = node;
  for (;;) {
    const scope = current.childForFieldName('scope');
    const name = current.childForFieldName('name');
    if (current.type !== 'qualified_identifier' || !name) break;
    if (scope) scopes.push((scope.type === 'template_type' ? (scope.childForFieldName('name') ?? scope) : scope).text);
    current = name;
  }
  // A specialisation (`Tree::Add<kBack>`) is a definition of its template's name.
  if (current.type === 'template_function') current = current.childForFieldName('name') ?? current;
  return { name: current, container: scopes.join('.') };
}
