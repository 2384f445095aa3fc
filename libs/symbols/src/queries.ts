/**
 * Our own tags patterns, added to each grammar's packaged queries/tags.scm. They use the same
 * captures (`@name`, `@definition.<kind>`) plus some of ours: `@scope` marks a node that names the
 * container of the definitions inside it without being a definition itself (a Rust `impl`), and
 * `@container` gives a definition's container outright (a Go method's receiver type), and
 * `@qualified` is a C++ qualified name (`ns::Type<T>::method`, `class Outer::Inner {…}`) split into
 * container and name, and `@misread` is the qualified "type" tree-sitter-cpp reads before a
 * conversion operator defined out of class (`Env::operator napi_env() {…}` parses as a function
 * `napi_env` returning `Env::operator`): it holds the container, and the declarator names the
 * operator's type, and `@loose` is a `namespace`, `class`, `struct` or `union` keyword loose in an
 * ERROR node, whose scope loose-scopes.ts recovers, and `@friend` a function defined as a friend
 * inside a class, which belongs to the scope around the class. Where a pattern here and a packaged one find
 * the same name, ours decides the kind.
 */
/** Values of a top-level constant worth finding by name (functions are the tags' own). */
const JS_VALUES = '(call_expression) (object) (array) (string) (number) (new_expression) (member_expression) (identifier) (template_string) (binary_expression)';
const TS_VALUES = `${JS_VALUES} (as_expression) (satisfies_expression)`;

const TYPESCRIPT = `
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [${TS_VALUES}])) @definition.constant)
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: [${TS_VALUES}])) @definition.constant))
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (identifier) @name) @definition.module
(class_declaration name: (type_identifier) @name) @definition.class
(method_definition name: (property_identifier) @name) @definition.method
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
`;

const JAVASCRIPT = `
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: [${JS_VALUES}])) @definition.constant))
(method_definition name: (property_identifier) @name) @definition.method
(field_definition property: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
`;

const PYTHON = ``;

const GO = `
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @container
    (pointer_type (type_identifier) @container)
    (generic_type type: (type_identifier) @container)
    (pointer_type (generic_type type: (type_identifier) @container))]))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name) @definition.method
`;

const JAVA = `
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(constructor_declaration name: (identifier) @name) @definition.method
`;

const RUST = `
(impl_item type: [
  (type_identifier) @name
  (generic_type type: (type_identifier) @name)
  (scoped_type_identifier name: (type_identifier) @name)]) @scope
(function_signature_item name: (identifier) @name) @definition.method
(const_item name: (identifier) @name) @definition.constant
`;

const C_FAMILY = `
(preproc_function_def name: (identifier) @name) @definition.macro
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(type_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))) @definition.type
`;

const CPP = `${C_FAMILY}
(namespace_definition name: (namespace_identifier) @name) @definition.module
(alias_declaration name: (type_identifier) @name) @definition.type
(function_declarator declarator: (qualified_identifier) @qualified) @definition.method
(function_declarator declarator: (destructor_name) @name) @definition.method
(function_declarator declarator: (operator_name) @name) @definition.method
(function_definition declarator: (operator_cast) @name) @definition.method
(function_definition declarator: (qualified_identifier) @qualified) @definition.method
(function_definition type: (qualified_identifier) @misread declarator: (function_declarator declarator: (_) @name)) @definition.method
(class_specifier name: (qualified_identifier) @qualified body: (_)) @definition.class
(struct_specifier name: (qualified_identifier) @qualified body: (_)) @definition.struct
(union_specifier name: (qualified_identifier) @qualified body: (_)) @definition.struct
(class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
(union_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(function_declarator declarator: (template_function name: (identifier) @name)) @definition.function
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))) @definition.type
(type_definition declarator: (reference_declarator (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (type_identifier) @name)) @definition.type
(friend_declaration (function_definition) @friend)
(ERROR ["namespace" "class" "struct" "union"] @loose)
`;

const CSHARP = `
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(constructor_declaration name: (identifier) @name) @definition.method
(delegate_declaration name: (identifier) @name) @definition.type
(property_declaration name: (identifier) @name) @definition.property
(namespace_declaration name: (qualified_name) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module
`;

const RUBY = ``;

const PHP = `
(method_declaration name: (name) @name) @definition.method
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
`;

export const OWN_QUERIES = {
  typescript: TYPESCRIPT,
  javascript: JAVASCRIPT,
  python: PYTHON,
  go: GO,
  java: JAVA,
  rust: RUST,
  c: C_FAMILY,
  cpp: CPP,
  csharp: CSHARP,
  ruby: RUBY,
  php: PHP,
} as const;
