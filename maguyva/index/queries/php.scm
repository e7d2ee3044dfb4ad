; PHP: definitions and references for Maguyva (tree-sitter-language-pack 0.13 grammar, `php`).
; Properties are not definitions here; `new T(...)` targets class T.

; ---- definitions ----
((comment)? @doc . (class_declaration name: (name) @name) @def.class)
((comment)? @doc . (interface_declaration name: (name) @name) @def.interface)
((comment)? @doc . (trait_declaration name: (name) @name) @def.trait)
((comment)? @doc . (enum_declaration name: (name) @name) @def.enum)
((comment)? @doc . (method_declaration name: (name) @name) @def.method)
((comment)? @doc . (function_definition name: (name) @name) @def.function)
(const_declaration (const_element (name) @name) @def.constant)
(namespace_definition name: (namespace_name) @name) @def.namespace

; ---- references ----
; use A\B\C;  use A\B\C as D;  use function A\f;
(namespace_use_clause . (qualified_name prefix: (namespace_name) @module (name) @name .)
  alias: (name)? @alias) @ref.import
(namespace_use_clause . (name) @module . alias: (name)? @alias) @ref.import
[(require_expression (string) @module) (require_once_expression (string) @module)
 (include_expression (string) @module) (include_once_expression (string) @module)] @ref.import

(function_call_expression function: [(name) @name (qualified_name (name) @name .)]) @ref.call
(member_call_expression object: (_) @qualifier name: (name) @name) @ref.call
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @name) @ref.call
(scoped_call_expression scope: (_) @qualifier name: (name) @name) @ref.call
(object_creation_expression [(name) @name (qualified_name (name) @name .)]) @ref.call

(base_clause [(name) @name (qualified_name (name) @name .)]) @ref.inherit
(class_interface_clause [(name) @name (qualified_name (name) @name .)]) @ref.inherit
(declaration_list (use_declaration [(name) @name (qualified_name (name) @name .)]) @ref.inherit)
