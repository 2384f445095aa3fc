import type { Node } from 'web-tree-sitter';

/**
 * A C++ operator's name in one spelling whatever the source's spacing: whitespace only between two
 * word characters, where it separates words (`operator bool`, `operator const T&`, `operator==`,
 * `operator new[]`). Sources write `operator ==` and `operator==` alike, and ctags writes
 * `operator =`; one spelling lets `find_symbol` match whichever an agent types after the same
 * rule (exported for the bench, which asks for ctags's names).
 */
export function operatorName(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (?=\W)|(?<=\W) /g, '');
}

/**
 * A conversion operator's name from its `operator_cast` node (`operator const T&() const`): the
 * text before its parameter list, where the cast's type ends.
 */
export function castName(node: Node): string {
  let end = node.endIndex;
  const params = node.descendantsOfType('parameter_list')[0];
  if (params) end = params.startIndex;
  return operatorName(node.text.slice(0, end - node.startIndex));
}
