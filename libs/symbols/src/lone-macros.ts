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
 * An upper-case macro between a function's parameter list (and `const`) and its body:
 * `WrapSetter(SetterTag<setter>) NAPI_NOEXCEPT {`, `void Run() const LOCKS_EXCLUDED(mu_) {`,
 * or the macro first on the next line (`void Remove(const std::string& f)`
 * `EXCLUSIVE_LOCKS_REQUIRED(mu_) {`).
 * Unexpanded, tree-sitter reads the macro as the declarator and the function as a declaration,
 * so the function is lost. Group 1 is what stays, group 2 the macro and its arguments.
 */
const TRAILING_MACRO = /(\)(?:[ \t]*const)?(?:[ \t]+|[ \t]*\r?\n[ \t]*))([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)(?=\s*\{)/g;

/**
 * An upper-case macro between `class`, `struct` or `union` and the type's name, where export and
 * annotation macros go: `class LEVELDB_EXPORT Cache {`, `class LOCKABLE Mutex {`,
 * `struct LEVELDB_EXPORT Options {`, `class EXPORT Env : public Base {`. Unexpanded, tree-sitter
 * takes the macro for the name and loses the type and every member in it. The name must follow
 * (then `final`, a base list or the body), so `class FOO {` keeps its name and `struct STAT buf;` (a variable) is left alone.
 * Group 1 is what stays before the macro.
 */
const CLASS_MACRO = /(\b(?:class|struct|union)[ \t]+)([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)(?=[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?\s*(?:\{|:(?!:)))/g;

/**
 * The content with each lone macro line, each macro after a function's parameters, and each
 * macro before a class's name blanked by spaces of the same length, so every offset, line and
 * column of the rest stays where it was.
 */
export function blankLoneMacros(content: string): string {
  return (
    content
      .replace(LONE_MACRO, (line) => ' '.repeat(line.length))
      // Before the rule for macros after parameters, which would take the name of
      // `struct ALIGNAS(16) Vec4 {` for a macro after `ALIGNAS(16)`.
      .replace(CLASS_MACRO, blankSecond)
      .replace(TRAILING_MACRO, blankSecond)
  );
}

function blankSecond(_: string, kept: string, macro: string): string {
  return kept + ' '.repeat(macro.length);
}
