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
 * `iterator begin() const noexcept ABSL_ATTRIBUTE_LIFETIME_BOUND {`,
 * or the macro first on the next line (`void Remove(const std::string& f)`
 * `EXCLUSIVE_LOCKS_REQUIRED(mu_) {`), or before a constructor's initializer list
 * (`explicit MutexLock(Mutex& mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {`).
 * Unexpanded, tree-sitter reads the macro as the declarator and the function as a declaration,
 * so the function is lost. Group 1 is what stays, group 2 the macro and its arguments.
 */
const TRAILING_MACRO = /(\)(?:[ \t]*const)?(?:[ \t]*noexcept)?(?:[ \t]+|[ \t]*\r?\n[ \t]*))([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)(?=\s*(?:\{|:(?!:)))/g;

/**
 * Upper-case macros between `class`, `struct` or `union` and the type's name, where export and
 * annotation macros go: `class LEVELDB_EXPORT Cache {`, `class LOCKABLE Mutex {`,
 * `class ABSL_LOCKABLE ABSL_ATTRIBUTE_WARN_UNUSED Mutex {`, a specialisation on the next line
 * (`struct ABSL_DECLSPEC` `Storage<T, I, Tag, true> : T {`; template arguments nest two deep, so
 * each candidate stops at the second `<` it meets), and up to eight comment lines before the bases
 * (each line is read by the one candidate ending on the line before it and the seven before that),
 * `struct LEVELDB_EXPORT Options {`, `class EXPORT Env : public Base {`. Unexpanded, tree-sitter
 * takes the macro for the name and loses the type and every member in it. The name must follow
 * (then `final`, a base list or the body), so `class FOO {` keeps its name and `struct STAT buf;` (a variable) is left alone.
 * Group 1 is what stays before the macro.
 */
const CLASS_MACRO =
  /(\b(?:class|struct|union)[ \t]+)([A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?(?:[ \t]+[A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?)*)(?=\s+[A-Za-z_]\w*(?:<[^;{}<>]*(?:<[^;{}<>]*>[^;{}<>]*)*>)?(?:[ \t]+final)?(?:\s*\n[ \t]*\/\/[^\n]*){0,8}\s*(?:\{|:(?!:)))/g;

/**
 * A macro call standing as a statement at the start of a line, outside any function
 * (`ABSL_FLAG(int, size, 8, "log2(number of DFA nodes)");`, `DEFINE_int32(port, 0, "");`): its
 * arguments mix types and values, which no declaration holds, so tree-sitter read it and often the
 * rest of the file as an error. It declares nothing ctags reports. The call may run over several
 * lines; its arguments may hold strings and one level of parentheses, never `;`, `{` or `}`, so
 * each candidate ends at the next of those or of the next candidate's `(`: one pass over the text.
 */
const MACRO_STATEMENT = /^[A-Z_][A-Z0-9_]*\((?:[^()";{}]|"(?:[^"\\\n]|\\.)*"|\((?:[^()";{}]|"(?:[^"\\\n]|\\.)*")*\))*\)[ \t]*;/gm;

/** Words an annotation macro's name holds (`ABSL_ATTRIBUTE_LIFETIME_BOUND`, `LEVELDB_EXPORT`). */
const ANNOTATION_WORDS = 'EXPORT|API|DLL|ATTRIBUTE|INLINE|CONST_INIT|DEPRECATED|NODISCARD|MUST_USE|WEAK|UNUSED|NORETURN|VISIBILITY|EXTERN|LIFETIME_BOUND|CAPTURED';

/**
 * An annotation macro after a parameter's name (`Mutex& mu ABSL_INTERNAL_ATTRIBUTE_CAPTURED_BY_THIS,`,
 * `T&& value ABSL_ATTRIBUTE_LIFETIME_BOUND)`), which tree-sitter read as a second name, so the
 * parameter list and its function became an error. Group 1 is what stays.
 */
const PARAMETER_MACRO = new RegExp(`(\\b[A-Za-z_]\\w*[ \\t]+)((?=[A-Z0-9_]*(?:${ANNOTATION_WORDS}))(?=[A-Z][A-Z0-9]*_)[A-Z0-9_]+)(?=[ \\t]*[,)])`, 'g');

/**
 * An upper-case macro standing for a keyword before a block (`ABSL_INTERNAL_TRY {` …
 * `ABSL_INTERNAL_CATCH_ANY {`, for `try` and `catch (...)`): tree-sitter read the two blocks as
 * errors that closed the enclosing namespace early. Without the macro each is a plain block.
 */
const BLOCK_MACRO = /^([ \t]*)((?=[A-Z][A-Z0-9]*_)[A-Z0-9_]+)(?=[ \t]*\{)/gm;

/**
 * An annotation macro first on its line, before a declaration on the same line:
 * `ABSL_ATTRIBUTE_NOINLINE raw_hash_set(raw_hash_set&& that) noexcept : settings_(…) {`,
 * `ABSL_CONST_INIT static Mutex mu;`, `LEVELDB_EXPORT Status DestroyDB(…);`. Before a
 * constructor tree-sitter took the macro for a return type, and a return type with a member
 * initializer list for an error that ended the class there. Only names that say what they are
 * (export, attribute, inline, const-init…), so an upper-case type (`LARGE_INTEGER size;`) keeps
 * its occurrences. Group 1 is what stays (the indentation). The lookaheads never backtrack into
 * the name, so a long one costs one pass.
 */
const LEADING_MACRO = new RegExp(`^([ \\t]*)((?=[A-Z0-9_]*(?:${ANNOTATION_WORDS}))(?=[A-Z][A-Z0-9]*_)[A-Z0-9_]+(?:\\([^()\\n]*\\))?)(?=[ \\t]+[A-Za-z_~])`, 'gm');

/**
 * A lower-case annotation macro after a pointer's `*` and before the name it qualifies:
 * abseil's nullability (`CordRep* absl_nonnull rep`, `static Node* absl_nullable Find(`,
 * `CordRep* absl_nonnull Cord::TakeRep() {`). C and
 * C++ allow no second name there but a qualifier (`T* const p`), so tree-sitter read the
 * parameter list, and with it the function, as an error. Group 1 is what stays.
 */
const POINTER_ANNOTATION =
  /(\*[ \t]*)(?!(?:const|volatile|restrict|__restrict|__restrict__|_Nonnull|_Nullable|_Null_unspecified|sizeof|alignof|new|delete)\b)([a-z_][a-z0-9_]*)(?=[ \t]+[A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*[ \t]*[,)(=;])/g;

/**
 * The content with each lone macro line, each macro call standing as a statement, each macro after a function's parameters, each
 * annotation macro first on its line or after a parameter, each macro standing for `try` or `catch`, each macro before a class's name and each annotation after a pointer's `*` blanked by spaces of the same length, so every offset, line and
 * column of the rest stays where it was.
 */
export function blankLoneMacros(content: string): string {
  return (
    content
      .replace(LONE_MACRO, (line) => ' '.repeat(line.length))
      .replace(MACRO_STATEMENT, (call) => call.replace(/[^\r\n]/g, ' '))
      // Before the rule for macros after parameters, which would take the name of
      // `struct ALIGNAS(16) Vec4 {` for a macro after `ALIGNAS(16)`.
      .replace(CLASS_MACRO, blankSecond)
      .replace(TRAILING_MACRO, blankSecond)
      .replace(LEADING_MACRO, blankSecond)
      .replace(PARAMETER_MACRO, blankSecond)
      .replace(BLOCK_MACRO, blankSecond)
      .replace(POINTER_ANNOTATION, blankSecond)
  );
}

function blankSecond(_: string, kept: string, macro: string): string {
  return kept + ' '.repeat(macro.length);
}
