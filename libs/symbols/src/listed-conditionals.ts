/**
 * An `#if` … `#endif` inside a list: a constructor's member initializers or a call's arguments,
 * where the line before the `#if` ends with `:` or `,`
 * (`Limiter(int n)` `:` `#if !defined(NDEBUG)` `max_(n),` `#endif` `allowed_(n) {}`).
 * tree-sitter-cpp takes preprocessor conditionals only where a declaration or a statement may
 * stand, so the list becomes an error that swallows the function, its class and often the rest
 * of the file. The first branch is kept, as ctags reads it; one `#else` or `#elif` branch, when
 * there is one, is blanked with its directive, so the list holds one branch's initializers (two
 * would leave a doubled or dangling comma). Lines inside a branch may hold no directive, so each
 * match ends at the second directive after its `#if`, or the third with an `#else`: one pass
 * over the text.
 */
const LISTED_CONDITIONAL =
  /(?<=[^:]:|,)([ \t]*(?:\/\/[^\n,:]*)?\r?\n)([ \t]*#[ \t]*if[^\n]*)(\n(?:(?![ \t]*#)[^\n]*\n)*?)((?:[ \t]*#[ \t]*el(?:se|if)\b[^\n]*\n(?:(?![ \t]*#)[^\n]*\n)*?)?)([ \t]*#[ \t]*endif[^\n]*)/g;

/** Every character but line breaks as a space, so lines and columns stay where they were. */
const blank = (text: string) => text.replace(/[^\r\n]/g, ' ');

/** The content with each such `#if`, `#endif` and `#else` branch blanked by spaces of the same length. */
export function blankListedConditionals(content: string): string {
  return content.replace(LISTED_CONDITIONAL, (_, before: string, open: string, between: string, otherwise: string, close: string) => before + blank(open) + between + blank(otherwise) + blank(close));
}
