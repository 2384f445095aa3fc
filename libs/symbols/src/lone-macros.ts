/**
 * A line holding nothing but an upper-case name at its start (`CPU_FEATURES_START_CPP_NAMESPACE`,
 * `G_BEGIN_DECLS`): a macro standing alone, which in C and C++ opens a namespace or an
 * `extern "C"` block, or expands to nothing. tree-sitter does not expand macros, so it reads the
 * name as the start of the next declaration (`MACRO typedef struct {…} Name;` becomes a function
 * with a made-up name) or as an error. An enumerator or a return type on its own line is indented
 * or followed by more on the line (`,`, `*`), so the match stays this narrow.
 */
const LONE_MACRO = /^[A-Z_][A-Z0-9_]*[ \t\r]*$/gm;

/**
 * The content with each lone macro line blanked by spaces of the same length, so every offset,
 * line and column of the rest stays where it was.
 */
export function blankLoneMacros(content: string): string {
  return content.replace(LONE_MACRO, (line) => ' '.repeat(line.length));
}
