/**
 * An `#if` … `#endif` with no `#else` inside a list: a constructor's member initializers or a
 * call's arguments, where the line before the `#if` ends with `:` or `,`
 * (`Limiter(int n)` `:` `#if !defined(NDEBUG)` `max_(n),` `#endif` `allowed_(n) {}`).
 * tree-sitter-cpp takes preprocessor conditionals only where a declaration or a statement may
 * stand, so the list becomes an error that swallows the function, its class and often the rest
 * of the file. With no `#else`, the code between holds one branch only, as a compiler that takes
 * it (and ctags, which reads first branches) sees it. Lines between may hold no directive, so
 * each match ends at the first directive after its `#if`: one pass over the text.
 */
const LISTED_CONDITIONAL = /(?<=[^:]:|,)([ \t]*(?:\/\/[^\n,:]*)?\r?\n)([ \t]*#[ \t]*if[^\n]*)(\n(?:(?![ \t]*#)[^\n]*\n)*?)([ \t]*#[ \t]*endif[^\n]*)/g;

/** The content with each such `#if` and `#endif` line blanked by spaces of the same length. */
export function blankListedConditionals(content: string): string {
  return content.replace(LISTED_CONDITIONAL, (_, before: string, open: string, between: string, close: string) => before + ' '.repeat(open.length) + between + ' '.repeat(close.length));
}
