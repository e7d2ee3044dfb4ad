; Rust: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar).

; ---- definitions ----
; `///` comments directly above an item are its doc
((line_comment)+ @doc . (function_item name: (identifier) @name) @def.function)
((line_comment)+ @doc . (trait_item name: (type_identifier) @name) @def.trait)
((line_comment)+ @doc . (const_item name: (identifier) @name) @def.constant)
(source_file (function_item name: (identifier) @name) @def.function)
(mod_item body: (declaration_list (function_item name: (identifier) @name) @def.function))
(impl_item body: (declaration_list (function_item name: (identifier) @name) @def.method))
(trait_item body: (declaration_list [(function_item name: (identifier) @name)
                                     (function_signature_item name: (identifier) @name)] @def.method))
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(type_item name: (type_identifier) @name) @def.type
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.variable
(mod_item name: (identifier) @name body: (declaration_list)) @def.module
(macro_definition name: (identifier) @name) @def.function

; ---- references ----
; `mod x;` loads the file of module x.
(mod_item !body name: (identifier) @module) @ref.import
; use a::b::C;  use a::b::c;  (a lower-case last segment may be a module: the hook's submodule)
(use_declaration argument: (scoped_identifier path: (_) @module name: (identifier) @name)) @ref.import
(use_declaration argument: (use_as_clause
  path: (scoped_identifier path: (_) @module name: (identifier) @name) alias: (identifier) @alias)) @ref.import
; use a::b::{C, d as e};
(use_declaration argument: (scoped_use_list path: (_) @module list: (use_list (identifier) @name))) @ref.import
(use_declaration argument: (scoped_use_list path: (_) @module
  list: (use_list (use_as_clause path: (identifier) @name alias: (identifier) @alias)))) @ref.import
; use foo;  (a crate or a sibling module)
(use_declaration argument: (identifier) @module) @ref.import

(call_expression function: (identifier) @name) @ref.call
(call_expression function: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @ref.call
(call_expression function: (field_expression value: (_) @qualifier field: (field_identifier) @name)) @ref.call
(call_expression function: (generic_function function: (identifier) @name)) @ref.call
(call_expression function: (generic_function
  function: (scoped_identifier path: (_) @qualifier name: (identifier) @name))) @ref.call
(call_expression function: (generic_function
  function: (field_expression value: (_) @qualifier field: (field_identifier) @name))) @ref.call

; impl Trait for Type: the type takes the trait's methods.
(impl_item trait: [(type_identifier) @name
                   (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
                   (generic_type type: (type_identifier) @name)]) @ref.inherit

; Calls written inside macro arguments (println!, format!, assert!…) are token trees, not expressions.
(token_tree (identifier) @qualifier . "." . (identifier) @name . (token_tree)) @ref.call
(token_tree (identifier) @name . (token_tree)) @ref.call
